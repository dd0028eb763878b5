#!/bin/bash
# WebSocket echo-conversation replay (issue 35): `tonearm serve` replaying a recorded echo (keyed order,
# pacing off) against a plain NIO WebSocket echo server, each on one core (taskset), the same NIO load
# client on the other: CONNECTIONS sockets each sending a message and awaiting its answer for SECONDS.
# Prints messages a second, round-trip p50/p99 and the server's CPU per message, side by side.
# Usage: scripts/bench-websockets.sh   (CONNECTIONS=50 DURATION=10 seconds; builds release into .build-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS="${CONNECTIONS:-50}"
SECONDS_EACH="${DURATION:-10}"
swift build -c release --product tonearm --scratch-path .build-bench >&2
swift build -c release --product StreamBench --scratch-path .build-bench >&2
BIN=.build-bench/release
WORK="$(mktemp -d)"
SERVER=
trap '[ -n "$SERVER" ] && kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
cat > "$WORK/echo.json" <<'JSON'
{"formatVersion": 1, "tracks": [{
  "request": {"method": "GET", "url": "https://echo.example.com/socket"},
  "response": {"status": 101},
  "webSocket": {"messages": [{"at": 0, "from": "client", "text": "hello, socket"}, {"at": 0, "from": "server", "text": "hello, socket"}]}}]}
JSON
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
run() {  # name, url
    local before after result
    before=$(cpu_ticks "$SERVER")
    result=$(taskset -c 0 "$BIN/StreamBench" websocket-load "$2" "$CONNECTIONS" "$SECONDS_EACH" "hello, socket")
    after=$(cpu_ticks "$SERVER")
    python3 - "$1" "$result" "$before" "$after" <<'PY'
import json, os, sys
name, result, before, after = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
seconds = (after - before) / os.sysconf("SC_CLK_TCK")
result["server"] = name
result["serverCPUMicrosecondsPerMessage"] = round(seconds * 1e6 / max(1, result["messages"]), 2)
print(json.dumps(result))
PY
}

taskset -c 1 "$BIN/tonearm" serve --cassette "$WORK/echo.json" --websocket-order keyed --stream-pacing off \
    --journal-limit 1000 --ready-file "$WORK/ready" >"$WORK/out" 2>"$WORK/err" &
SERVER=$!
for _ in $(seq 100); do [ -s "$WORK/ready" ] && break; sleep 0.1; done
PORT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$WORK/ready")
run "tonearm serve (replay)" "ws://127.0.0.1:$PORT/echo.example.com/socket"
kill $SERVER; wait $SERVER 2>/dev/null || true

taskset -c 1 "$BIN/StreamBench" echo-server >"$WORK/port" &
SERVER=$!
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.1; done
run "NIO echo server" "ws://127.0.0.1:$(cat "$WORK/port")/socket"
