#!/bin/bash
# Paced stream replay at scale (issue 35): COUNT concurrent Server-Sent Events replays of one recorded
# stream (20 events over 2 s) against one `tonearm serve` on core 1, read by a native NIO client on core 0
# (Tests/StreamBench), each event's pacing error (how late it came on its stream's schedule, anchored at
# the stream's least late event) as p50 / p99 / max, and the server's resident memory while they stream.
# Each RAMPS entry is one run: the streams start evenly over that many milliseconds (0: all at once, so
# every stream's events fall due in the same millisecond).
# Usage: scripts/bench-streams.sh   (COUNT=1000 RAMPS="0 1000"; builds release into .build-bench;
#        TONEARM=path runs that server binary instead, e.g. a build of an earlier commit to compare;
#        FIRST_AT=ms shifts every event by that much, so the first one is paced too rather than written
#        with the head, as an LLM's first token comes after a pause)
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${COUNT:-1000}"
RAMPS="${RAMPS:-0 1000}"
swift build -c release --product tonearm --scratch-path .build-bench >&2
swift build -c release --product StreamBench --scratch-path .build-bench >&2
BIN=.build-bench/release
WORK="$(mktemp -d)"
ulimit -n 8192
python3 - "$WORK/stream.json" "${FIRST_AT:-0}" <<'PY'
import json, sys
first = int(sys.argv[2])
events = [{"at": first + 100 * i, "event": "delta", "json": {"index": i, "text": "token %d" % i}} for i in range(19)]
events.append({"at": first + 1900, "data": "[DONE]"})
cassette = {"formatVersion": 1, "tracks": [{
    "request": {"method": "GET", "url": "https://api.example.com/v1/stream"},
    "response": {"status": 200, "headers": [["Content-Type", "text/event-stream"]], "events": events}}]}
json.dump(cassette, open(sys.argv[1], "w"))
PY
taskset -c 1 "${TONEARM:-$BIN/tonearm}" serve --cassette "$WORK/stream.json" --mode replay --journal-limit 1000 --max-connections 4096 \
    --ready-file "$WORK/ready" >"$WORK/out" 2>"$WORK/err" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do [ -s "$WORK/ready" ] && break; sleep 0.1; done
PORT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$WORK/ready")
rss() { awk '/VmRSS/ {print $2}' "/proc/$SERVER/status"; }
# The server's CPU time so far (user + system) in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }
TICKS=$(getconf CLK_TCK)
OFFSETS=$(python3 -c 'import json,sys; print(",".join(str(e["at"]) for e in json.load(open(sys.argv[1]))["tracks"][0]["response"]["events"]))' "$WORK/stream.json")
taskset -c 0 "$BIN/StreamBench" sse-load "$PORT" /api.example.com/v1/stream 20 0 "$OFFSETS" >/dev/null  # warm-up
for RAMP in $RAMPS; do
    BEFORE=$(rss)
    CPU_BEFORE=$(cpu)
    ( sleep $(( RAMP / 1000 + 1 )); rss > "$WORK/during" ) &
    SAMPLER=$!
    RESULT=$(taskset -c 0 "$BIN/StreamBench" sse-load "$PORT" /api.example.com/v1/stream "$COUNT" "$RAMP" "$OFFSETS")
    wait "$SAMPLER"
    DURING=$(cat "$WORK/during")
    CPU_SPENT=$(( $(cpu) - CPU_BEFORE ))
    # serverCPUPerEventMicroseconds: the server's CPU over the run (connections, heads and events) per event.
    echo "$RESULT" | python3 -c 'import json,sys; r=json.load(sys.stdin); before, during, count, ticks, hz = map(int, sys.argv[1:]); r.update(residentBeforeKiB=before, residentWhileStreamingKiB=during, perStreamKiB=(during-before)//count, serverCPUSeconds=ticks/hz, serverCPUPerEventMicroseconds=round(ticks/hz*1e6/max(1, r["eventsMeasured"] + r["streams"]), 1)); print(json.dumps(r))' "$BEFORE" "$DURING" "$COUNT" "$CPU_SPENT" "$TICKS"
done
