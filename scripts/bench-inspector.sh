#!/usr/bin/env bash
# Replay CPU per request with and without an inspector page subscribed (docs/benchmarks.md, "The
# inspector's cost"): one `tonearm serve --mode replay` process, its default 10,000-entry
# journal, wrk on CONNECTIONS keep-alive connections asking for random tracks; each round measures the
# server's own user+system time (/proc/PID/stat) per request answered, first with no page, then with
# SUBSCRIBERS event feeds open (curl -N on the inspector's /events, as the page's EventSource), so
# both halves of a round see the same machine.
#
#   scripts/bench-inspector.sh                         # 16 connections, 10 s a half, 3 rounds, 1 feed
#   CONNECTIONS=1 ROUNDS=5 scripts/bench-inspector.sh
#   SUBSCRIBERS=4 scripts/bench-inspector.sh
#   BROWSER=1 scripts/bench-inspector.sh               # the page itself, open in headless Chromium
#                                                      # (its catch-up fetches too), instead of curl
#   TONEARM=/path/to/tonearm scripts/bench-inspector.sh   # a binary already built (no build step)
set -euo pipefail
cd "$(dirname "$0")/.."
TRACKS=${TRACKS:-10000}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-16}
DURATION=${DURATION:-10s}
SUBSCRIBERS=${SUBSCRIBERS:-1}
WORK=${WORK:-/tmp/tonearm-inspector-bench}
mkdir -p "$WORK"
source scripts/bench-support/tonearm-binary.sh
python3 scripts/bench-support/bench_cassette.py "$WORK" "$TRACKS"
echo "load: $(uptime)"
rm -f "$WORK/tonearm.out"
"$TONEARM" serve --cassette "$WORK/cassette.json" --mode replay >"$WORK/tonearm.out" 2>"$WORK/tonearm.err" &
PID=$!
FEEDS=()
cleanup() {
    for feed in "${FEEDS[@]}"; do kill "$feed" 2>/dev/null || true; done
    kill $PID 2>/dev/null || true
}
trap cleanup EXIT
until [ -s "$WORK/tonearm.out" ]; do sleep 0.05; done
read -r PORT INSPECTOR < <(head -1 "$WORK/tonearm.out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["port"], d["inspectorUrl"])')

cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
run_wrk() {  # duration; prints the number of requests answered
    wrk -t2 -c"$CONNECTIONS" -d"$1" -s "$WORK/paths.lua" "http://127.0.0.1:$PORT" | awk '/requests in/ {print $1}'
}
BROWSER=${BROWSER:-0}
PYTHON=${PYTHON:-.build/python-venv/bin/python}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
open_feeds() {
    FEEDS=()
    for _ in $(seq "$SUBSCRIBERS"); do
        if [ "$BROWSER" = 1 ]; then
            "$PYTHON" scripts/bench-support/inspector_page.py "$INSPECTOR" "$CHROMIUM" >"$WORK/page.out" &
            FEEDS+=($!)
            until grep -q "^live" "$WORK/page.out" 2>/dev/null; do sleep 0.1; done
        else
            curl -sN "${INSPECTOR}events" >"$WORK/feed.out" &
            FEEDS+=($!)
        fi
    done
    # Each feed's first event (the state) arrives within a look: the feeds are open before counting.
    [ "$BROWSER" = 1 ] || until grep -q "event: state" "$WORK/feed.out" 2>/dev/null; do sleep 0.05; done
}
close_feeds() {
    for feed in "${FEEDS[@]}"; do kill "$feed" 2>/dev/null || true; wait "$feed" 2>/dev/null || true; done
    FEEDS=()
    rm -f "$WORK/feed.out"
}
measure() {  # label
    local before after count
    before=$(cpu_ticks)
    count=$(run_wrk "$DURATION")
    after=$(cpu_ticks)
    echo "$(( (after - before) * 1000000000 / HZ / count )) $count"
}
HZ=$(getconf CLK_TCK)
run_wrk 2s >/dev/null  # warm-up
echo "binary: $TONEARM, connections: $CONNECTIONS, feeds: $SUBSCRIBERS"
for round in $(seq "$ROUNDS"); do
    read -r without without_count < <(measure)
    open_feeds
    read -r with with_count < <(measure)
    events=$(grep -c "^event: exchanges" "$WORK/feed.out" 2>/dev/null || true)
    close_feeds
    echo "round $round: no page $without ns/request ($without_count requests); page subscribed $with ns/request ($with_count requests, $events exchange events); ratio $(python3 -c "print(f'{$with / $without:.3f}')")"
done
