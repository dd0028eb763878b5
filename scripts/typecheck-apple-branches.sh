#!/usr/bin/env bash
# Type-checks TonearmURLSession's Apple-only branches on Linux: the `#if !canImport(FoundationNetworking)`
# code (redirects handed to URLSession, the live-network bypass of a globally registered protocol) that
# no build here compiles. The condition TONEARM_TYPECHECK_APPLE_BRANCHES selects those branches (and leaves
# out the Linux-only ones beside them); this runs `swiftc -typecheck` with it on the module's sources, with
# the very flags the debug build compiled the module with (read from the build's llbuild manifest), against
# the modules that build produced: seconds, nothing rebuilt. Run by .ci/run after `swift test`.
#
# What it cannot check, because it type-checks against swift-corelibs-foundation, not an Apple SDK:
#   - APIs corelibs lacks or declares differently: Apple-only overloads and availability (`@available`
#     floors of macOS 15 / iOS 18 are not checked), Objective-C bridging (an `as NSURLRequest` cast that
#     corelibs answers with its own Swift class), `Sendable` annotations that differ between the SDKs;
#   - the other platform conditions: `canImport(Darwin)` code (TonearmTesting's XCTest activities) and
#     anything under `os(...)`; and Apple's zlib and XCTest, whose headers are not here;
#   - behaviour: nothing is linked or run. Only that the branches name things that exist, with types that fit.
#
# Usage: scripts/typecheck-apple-branches.sh     (after `swift build --build-tests`; BUILD=path for another
# build folder, default .build/debug)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${BUILD:-$root/.build/debug}" && pwd -P)
# The scratch folder (two levels up: .build/<triple>/debug) holds the manifest, debug.yaml.
manifest="$(dirname "$(dirname "$build")")/$(basename "$build").yaml"
[ -d "$build/Modules" ] && [ -f "$manifest" ] || { echo "typecheck-apple-branches.sh: build first (swift build --build-tests); no $build/Modules or $manifest" >&2; exit 1; }

mapfile -t command < <(python3 - "$manifest" TonearmURLSession <<'PY'
import json, re, sys
manifest, module = sys.argv[1], sys.argv[2]
text = open(manifest).read()
# The module's compile command: the llbuild entry "C.<module>-<triple>-debug.module"; its args are JSON.
entry = re.search(r'\n  "C\.' + re.escape(module) + r'-[^"]*\.module":\n((?:    .*\n)+)', text)
if not entry:
    sys.exit(f"no compile command for {module} in {manifest}")
args = json.loads(re.search(r'^    args: (\[.*\])$', entry.group(1), re.M).group(1))
# Keep what decides meaning (module name, sources, search paths, module maps, conditions, language
# mode); drop what writes outputs.
with_value = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path"}
alone = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode",
         "-serialize-diagnostics", "-parseable-output", "-emit-objc-header", "-enable-testing"}
kept, skip = [], False
for arg in args:
    if skip:
        skip = False
    elif arg in with_value:
        skip = True
    elif arg not in alone and not re.fullmatch(r"-j\d+", arg):
        kept.append(arg)
print("\n".join(kept + ["-typecheck", "-D", "TONEARM_TYPECHECK_APPLE_BRANCHES"]))
PY
)
echo "typecheck-apple-branches.sh: TonearmURLSession with TONEARM_TYPECHECK_APPLE_BRANCHES"
"${command[@]}"
echo "typecheck-apple-branches.sh: the Apple-only branches type-check against swift-corelibs-foundation"
