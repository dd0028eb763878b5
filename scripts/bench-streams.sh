#!/bin/bash
# Paced stream replay at scale (issue 35): COUNT concurrent Server-Sent Events replays of one recorded
# stream (20 events over 2 s) against one `tonearm serve`, each event's pacing error (arrival after the
# head minus its recorded time) as p50 / p99 / max, and the server's resident memory while they stream.
# Usage: TONEARM=.build-bench/release/tonearm COUNT=1000 scripts/bench-streams.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TONEARM="${TONEARM:-.build-bench/release/tonearm}"
COUNT="${COUNT:-1000}"
WORK="$(mktemp -d)"
ulimit -n 8192
python3 - "$WORK/stream.json" <<'PY'
import json, sys
events = [{"at": 100 * i, "event": "delta", "json": {"index": i, "text": "token %d" % i}} for i in range(19)]
events.append({"at": 1900, "data": "[DONE]"})
cassette = {"formatVersion": 1, "tracks": [{
    "request": {"method": "GET", "url": "https://api.example.com/v1/stream"},
    "response": {"status": 200, "headers": [["Content-Type", "text/event-stream"]], "events": events}}]}
json.dump(cassette, open(sys.argv[1], "w"))
PY
"$TONEARM" serve --cassette "$WORK/stream.json" --mode replay --journal-limit 1000 --max-connections 4096 \
    --ready-file "$WORK/ready" >"$WORK/out" 2>"$WORK/err" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do [ -s "$WORK/ready" ] && break; sleep 0.1; done
PORT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$WORK/ready")
rss() { awk '/VmRSS/ {print $2}' "/proc/$SERVER/status"; }
BEFORE=$(rss)
python3 scripts/bench-streams/sse_clients.py "$PORT" 20 "$WORK/stream.json" >/dev/null  # warm-up
( sleep 1; rss > "$WORK/during" ) &
SAMPLER=$!
RESULT=$(python3 scripts/bench-streams/sse_clients.py "$PORT" "$COUNT" "$WORK/stream.json")
wait "$SAMPLER"
DURING=$(cat "$WORK/during")
echo "$RESULT"
echo "{\"residentBeforeKiB\": $BEFORE, \"residentWhileStreamingKiB\": $DURING, \"perStreamKiB\": $(( (DURING - BEFORE) / COUNT ))}"
