#!/usr/bin/env bash
# Instructions (callgrind) and heap allocations (heaptrack) per request through `tonearm serve`'s whole
# request path in one process: the server's own handlers (NIO's HTTP decoder and encoder, the connection
# handlers, the responder chain, the answer writer and the journal) on an `EmbeddedChannel`, fed the
# keep-alive GETs wrk sends (Tests/RequestPathDriver). Two answers: a replay hit in the server
# benchmark's cassette (bench-support/bench_cassette.py, TRACKS tracks of 300-byte JSON bodies) and a
# stub rule's answer (its rules.json: one path rule, the same body). Counts are per request after 1,100
# requests that fill the journal (limit 1,000, as the benchmarks run), so they are the steady state.
#
# Callgrind cannot run the whole server here (Valgrind crashes under its threads) and wall-clock time
# on this shared machine is noise; these counts are the same on a loaded machine as on a quiet one.
# The driver is a target of this package rather than a scratch package (as scripts/match-instructions.sh
# builds) so that it reuses this checkout's release build of NIO and the server.
#
# Requests cycle over PATHS tracks (64 unless given) in a scattered order; PATHS=TRACKS spreads them over
# the whole cassette, as wrk's random paths do, each answered once before counting starts.
#
# Usage: scripts/server-instructions.sh        (TRACKS=100000 for the larger cassette, PATHS=N)
#        scripts/server-instructions.sh --check   (what .ci/run does: the shipped binary's build, see below)
#
# --check builds the driver as scripts/package.sh builds the shipped binary (release, static Swift
# standard library, the portable XXH3, scratch path .build-dist), so that CI, which has just built that,
# compiles only the driver; then it fails when a count exceeds its limit in scripts/server-instructions.limits
# (the counts of that build, measured, plus a margin for the few instructions that vary between
# machines). A change that costs more on the request path raises a limit in the same commit, saying why.
set -euo pipefail
cd "$(dirname "$0")/.."
TRACKS=${TRACKS:-10000}
PATHS=${PATHS:-64}
work="${SERVER_INSTRUCTIONS_DIR:-/tmp/tonearm-server-instructions}"
mkdir -p "$work"
source scripts/bench-support/callgrind-driver.sh
python3 scripts/bench-support/bench_cassette.py "$work" "$TRACKS"

check=
[ "${1:-}" != --check ] || check=scripts/server-instructions.limits
build=(swift build -c release)
[ -z "$check" ] || build+=(--static-swift-stdlib --traits PortableXXH3 --scratch-path "${TONEARM_DIST_SCRATCH:-.build-dist}")
"${build[@]}" --product RequestPathDriver >&2
DRIVER_NAME=RequestPathDriver
DRIVER_WORK=$work
# valgrind 3.19 cannot read this toolchain's debug info; a copy without it keeps the symbols.
strip --strip-debug -o "$work/$DRIVER_NAME.stripped" "$("${build[@]}" --show-bin-path)/$DRIVER_NAME"

# Heap allocations (malloc, calloc, realloc, posix_memalign...) of one run of the driver with ARGS.
allocations() {
    rm -f "$work"/heaptrack*
    heaptrack -o "$work/heaptrack" "$work/$DRIVER_NAME.stripped" "$@" >/dev/null 2>&1
    heaptrack_print "$work"/heaptrack*.zst 2>/dev/null | sed -n 's/^calls to allocation functions: \([0-9]*\).*/\1/p'
}

echo "$("$work/$DRIVER_NAME.stripped" replay "$work/cassette.json" "$PATHS" 1) (replay)"
echo "$("$work/$DRIVER_NAME.stripped" stub "$work/rules.json" "$PATHS" 1) (stub rule)"
for kind in replay stub; do
    file=$([ "$kind" = replay ] && echo "$work/cassette.json" || echo "$work/rules.json")
    instructions=$(per_iteration 2000 "$kind" "$file" "$PATHS")
    one=$(allocations "$kind" "$file" "$PATHS" 1)
    many=$(allocations "$kind" "$file" "$PATHS" 2001)
    per_request=$(awk "BEGIN { printf \"%.1f\", ($many - $one) / 2000 }")
    echo "per request, $kind ($TRACKS tracks, $PATHS paths): $instructions instructions, $per_request allocations"
    [ -n "$check" ] || continue
    # Each limit line: KIND instructions N allocations M.
    read -r _ _ most_instructions _ most_allocations < <(grep "^$kind " "$check")
    if [ "$instructions" -gt "$most_instructions" ] || awk "BEGIN { exit !($per_request > $most_allocations) }"; then
        echo "server-instructions.sh: a $kind request costs $instructions instructions and $per_request allocations;" \
            "the limits ($check) are $most_instructions and $most_allocations" >&2
        failed=1
    fi
done
[ -z "${failed:-}" ] || exit 1
