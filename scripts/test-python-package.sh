#!/usr/bin/env bash
# Tonearm without a Swift toolchain, end to end: builds the self-contained binary and the wheel
# (scripts/package.sh), then, with the Swift toolchain off PATH, no LD_LIBRARY_PATH and an empty HOME:
#
#   1. the binary from the tar.gz: `--version`, `demo`, and `serve` record + replay, run by the API tests
#      (python/tests/test_api.py) with TONEARM_BINARY pointing at it;
#   2. the wheel installed into a fresh virtual environment (with pytest, pytest-xdist, pytest-recording
#      (and so vcrpy), requests, httpx, urllib3 and aiohttp from PyPI): the package's own tests, the pytest
#      plugin's included (record against a local upstream, replay with it gone, a miss failing the test
#      with Tonearm's report, xdist with 2 workers, README's example; transparent mode with each HTTP
#      library against a local HTTPS upstream whose throwaway CA the openssl command makes; a suite
#      recorded by pytest-recording replayed through the marker).
#
#   scripts/test-python-package.sh            (.ci/run calls it)
#   TONEARM_PACKAGE_SKIP_BUILD=1 ...          tests what dist/ already holds
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

[ "${TONEARM_PACKAGE_SKIP_BUILD:-}" = 1 ] || scripts/package.sh

version=$(sed -n 's/^let tonearmVersion = "\(.*\)"$/\1/p' Sources/TonearmCLI/TonearmVersion.swift)
archive="dist/tonearm-$version-linux-x86_64.tar.gz"
wheels=(dist/tonearm-"$version"-py3-none-*.whl)
[ -f "$archive" ] && [ -f "${wheels[0]}" ] || { echo "test-python-package.sh: no $archive or wheel for $version in dist/" >&2; exit 1; }
(cd dist && sha256sum -c --quiet "$(basename "$archive").sha256")

work=$(mktemp -d "${TMPDIR:-/tmp}/tonearm-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/home"
tar -xzf "$archive" -C "$work"
binary="$work/tonearm-$version-linux-x86_64/tonearm"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check "${wheels[0]}" pytest pytest-xdist pytest-recording \
    requests httpx urllib3 aiohttp

# The clean environment: the venv and the system's own folders on PATH (the Swift toolchain lives in
# /opt/swift, never in these), nothing on the library path, a HOME with nothing in it.
clean=(env -i "PATH=$work/venv/bin:/usr/bin:/bin" "HOME=$work/home" "LANG=C.UTF-8" "TMPDIR=$work")
if "${clean[@]}" sh -c 'command -v swift' >/dev/null; then
    echo "test-python-package.sh: swift is still on the clean PATH ($("${clean[@]}" sh -c 'command -v swift'))" >&2
    exit 1
fi

echo "== the binary from $archive, in a clean environment"
"${clean[@]}" "$binary" --version
"${clean[@]}" "TONEARM_BINARY=$binary" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
    --rootdir "$root/python/tests" "$root/python/tests/test_api.py"

echo "== the wheel $(basename "${wheels[0]}") in a fresh virtual environment, in a clean environment"
installed=$("${clean[@]}" "$work/venv/bin/python" -c 'import tonearm; print(tonearm.find_binary())')
[ "$installed" = "$work/venv/bin/tonearm" ] || { echo "test-python-package.sh: the wheel's binary is $installed" >&2; exit 1; }
"${clean[@]}" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
    --rootdir "$root/python/tests" "$root/python/tests"
