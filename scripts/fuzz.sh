#!/usr/bin/env bash
# Builds the fuzz targets in Fuzz/ with libFuzzer and AddressSanitizer, then runs each for SECONDS
# (default 60). Fails, printing the end of that target's log and the input that broke it, when any
# target crashes, trips a sanitizer, hangs past TIMEOUT seconds (default 10) on one input or exceeds
# RSS_LIMIT_MB (default 2048).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 300 FuzzRuleFiles
#
# Seed corpora are generated on every run from the conformance corpus (../shared/conformance, or
# TONEARM_CONFORMANCE) plus the small seeds in Fuzz/Seeds; what the fuzzer finds is kept in
# Fuzz/.build/fuzz/<target>/corpus between runs (FUZZ_FRESH=1 starts over). Crashing inputs are saved as
# Fuzz/.build/fuzz/<target>/crash-*; replay one with `<binary> <file>`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzRequestKey FuzzJSONCanonicalizer FuzzImporters FuzzRuleFiles FuzzMethodRewriter)
timeout=${TIMEOUT:-10}
rss_limit=${RSS_LIMIT_MB:-2048}
work=$root/Fuzz/.build/fuzz

# -enable-testing for FuzzMethodRewriter's `@testable import TonearmServer` (the rewriter is internal), as
# scripts/tsan.sh builds its tests: stated rather than left to SwiftPM's debug default.
build=(swift build --package-path Fuzz -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)
# gold warns once per sanitizer helper symbol; the warnings say nothing about our code.
"${build[@]}" 2>&1 | grep -v "Cannot export local symbol" || { echo "fuzz.sh: building Fuzz/ failed" >&2; exit 1; }
bin=$("${build[@]}" --show-bin-path)

conformance=${TONEARM_CONFORMANCE:-}
if [ -z "$conformance" ]; then
    folder=$root
    while [ "$folder" != / ]; do
        if [ -d "$folder/shared/conformance" ]; then conformance=$folder/shared/conformance; break; fi
        folder=$(dirname "$folder")
    done
fi
[ -n "$conformance" ] || echo "fuzz.sh: no shared/conformance found; only Fuzz/Seeds seed the runs" >&2

# Writes the seeds for one target into $2 (recreated each run, never committed).
seed() {
    local target=$1 seeds=$2
    rm -rf "$seeds" && mkdir -p "$seeds"
    case $target in
    FuzzRequestKey)
        cp Fuzz/Seeds/request-key/* "$seeds/"
        [ -z "$conformance" ] || python3 - "$conformance" "$seeds" <<'PY'
import json, pathlib, sys
corpus, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
count = 0
for file in sorted((corpus / "url").glob("*.json")):
    for case in json.loads(file.read_text()):
        if isinstance(case, dict) and isinstance(case.get("input"), str) and count < 400:
            (out / f"url-{count}").write_text(f"GET {case['input']}\n\n")
            count += 1
for file in sorted((corpus / "har").glob("*.har")):
    for number, entry in enumerate(json.loads(file.read_text())["log"]["entries"][:20]):
        request = entry["request"]
        headers = "".join(f"{h['name']}: {h['value']}\n" for h in request.get("headers", []))
        body = (request.get("postData") or {}).get("text", "")
        (out / f"har-{file.stem}-{number}").write_text(f"{request['method']} {request['url']}\n{headers}\n{body}")
PY
        ;;
    FuzzJSONCanonicalizer)
        cp Fuzz/Seeds/json/* "$seeds/"
        [ -z "$conformance" ] || cp "$conformance"/jcs/input/*.json "$seeds/"
        ;;
    FuzzImporters)
        cp Fuzz/Seeds/importers/* "$seeds/"
        [ -z "$conformance" ] || for file in "$conformance"/{dvr,har,vcr,vinyl}/* "$conformance"/wiremock/mappings/*; do
            case $file in *.json|*.har|*.yaml|*.yml) cp "$file" "$seeds/$(basename "$(dirname "$file")")-$(basename "$file")" ;; esac
        done
        ;;
    FuzzRuleFiles)
        cp Fuzz/Seeds/rule-files/* "$seeds/"
        [ -z "$conformance" ] || cp "$conformance"/wiremock/mappings/*.json "$seeds/"
        ;;
    FuzzMethodRewriter)
        # Hand-written byte streams only: the conformance corpus has no raw HTTP/1 connections.
        cp Fuzz/Seeds/method-rewriter/* "$seeds/"
        ;;
    esac
}

failed=()
for target in "${targets[@]}"; do
    dir=$work/$target
    [ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf "$dir/corpus"
    mkdir -p "$dir/corpus"
    seed "$target" "$dir/seeds"
    max_len=4096
    [ "$target" = FuzzImporters ] && max_len=65536
    # A target's dictionary (the words of its format: header names, `chunked`, line ends) lets mutations
    # insert whole words that byte flips would take long to spell.
    dictionary=()
    [ -f "Fuzz/Seeds/$target.dict" ] && dictionary=(-dict="$root/Fuzz/Seeds/$target.dict")
    echo "== $target: ${seconds}s (log: $dir/log)"
    # The first folder collects new inputs; the seed folder is only read.
    if ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} "$bin/$target" \
        -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss_limit" -max_len="$max_len" \
        -print_final_stats=1 -artifact_prefix="$dir/" ${dictionary[@]+"${dictionary[@]}"} "$dir/corpus" "$dir/seeds" >"$dir/log" 2>&1; then
        grep -E "^stat::number_of_executed_units|^Done|cov:" "$dir/log" | tail -2
    else
        failed+=("$target")
        tail -40 "$dir/log"
        ls -1 "$dir"/crash-* "$dir"/timeout-* "$dir"/oom-* "$dir"/leak-* 2>/dev/null || true
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz.sh: ${#targets[@]} target(s) ran ${seconds}s each without a finding"
