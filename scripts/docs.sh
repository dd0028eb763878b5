#!/usr/bin/env bash
# Builds the DocC documentation of every library product with warnings as errors: a symbol link that
# resolves to nothing, an undocumented parameter or a broken article link fails. .ci/run calls it after
# the tests, with the same TONEARM_WARNINGS_AS_ERRORS, so the modules' build is mostly reused. The
# archives land in .build/plugins/Swift-DocC/outputs/<Target>.doccarchive; pass more arguments to the
# plugin after the script's (e.g. --transform-for-static-hosting).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(Tonearm TonearmCassettes TonearmURLSession TonearmTesting TonearmServer TonearmServerTesting TonearmWireMock
         TonearmHTTPTypes TonearmAsyncHTTPClient TonearmOpenAPI TonearmWorkloads)
arguments=()
for target in "${targets[@]}"; do arguments+=(--target "$target"); done

swift package generate-documentation "${arguments[@]}" --warnings-as-errors "$@"
