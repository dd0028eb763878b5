#!/usr/bin/env bash
# Builds the self-contained `tonearm` and what ships it to people without a Swift toolchain:
#
#   scripts/package.sh
#     dist/tonearm-VERSION-linux-x86_64.tar.gz         the binary (in tonearm-VERSION-linux-x86_64/)
#     dist/tonearm-VERSION-linux-x86_64.tar.gz.sha256  for `sha256sum -c`
#     dist/tonearm-VERSION-py3-none-TAG.whl             the Python package carrying the same binary
#
# Release, with the Swift standard library and Foundation linked in (--static-swift-stdlib) and the
# portable Swift XXH3 (the PortableXXH3 trait) instead of the system libxxhash, so what it still loads
# dynamically is only what every Debian/Ubuntu has; `ldd` is checked against that list and the script
# fails naming anything else. The version is the binary's own (`tonearm --version`). The build has a
# scratch path of its own (.build-dist), so it never disturbs the debug build of `swift test`.
# TONEARM_DIST_SCRATCH overrides it; TONEARM_DIST_OUT the output folder (default dist/).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${TONEARM_DIST_SCRATCH:-.build-dist}
out=${TONEARM_DIST_OUT:-dist}
# Naming only PortableXXH3 leaves out the default traits: SystemXXH3 (libxxhash) and URLSessionBench
# (FoundationNetworking, so libcurl).
build=(swift build -c release --product tonearm --static-swift-stdlib --traits PortableXXH3 --scratch-path "$scratch")

"${build[@]}"
built="$("${build[@]}" --show-bin-path)/tonearm"

# The libraries a Debian or Ubuntu system always has (libc6, libgcc-s1, libstdc++6, zlib1g are all
# "required" or pulled in by them): the binary may load these and nothing else.
allowed='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libutil\.so\.1|libresolv\.so\.2|libz\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'
libraries=$(ldd "$built" | awk '{ name = $1; sub(".*/", "", name); print name }')
unexpected=$(grep -Ev "$allowed" <<<"$libraries" || true)
if [ -n "$unexpected" ]; then
    echo "package.sh: $built loads libraries a plain Debian/Ubuntu may lack:" >&2
    ldd "$built" >&2
    echo "unexpected: $(tr '\n' ' ' <<<"$unexpected")" >&2
    exit 1
fi
if ldd "$built" | grep -q '/swift/'; then
    echo "package.sh: $built still loads a library from the Swift toolchain:" >&2
    ldd "$built" >&2
    exit 1
fi

version=$("$built" --version)
name="tonearm-$version-linux-x86_64"
stage="$scratch/package/$name"
rm -rf "$scratch/package"
mkdir -p "$stage" "$out"
# Symbols only name functions in a crash's backtrace, and are half the file (docs/benchmarks.md,
# "Tonearm without a Swift toolchain").
strip -o "$stage/tonearm" "$built"

archive="$name.tar.gz"
# Fixed owner, order and times: the same binary always gives the same archive.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='@0' -C "$scratch/package" -cf - "$name" \
    | gzip -n -9 > "$out/$archive"
(cd "$out" && sha256sum "$archive" > "$archive.sha256")

wheel=$(python3 python/build_wheel.py --binary "$stage/tonearm" --out "$out")

echo "package.sh: $out/$archive ($(stat -c %s "$out/$archive") bytes), $out/$archive.sha256"
echo "package.sh: $wheel ($(stat -c %s "$wheel") bytes)"
echo "package.sh: loads only $(tr '\n' ' ' <<<"$libraries")"
