#!/usr/bin/env bash
# Hostile clients against `tonearm serve` on 127.0.0.1 (issue 18, items 1 and 2), printing the server's
# resident memory (VmRSS) and how long a fresh client waits for an answer:
#   - one connection pipelining 3,000 GETs for a 1 MiB track and never reading;
#   - 3,000 slowloris connections, each sending one header byte every 5 s, with the server's descriptor
#     limit at 1,024 (FD_LIMIT), as on a default Linux shell.
#
#   scripts/hostile-clients.sh                                # release build of this checkout
#   TONEARM=/path/to/tonearm scripts/hostile-clients.sh       # a binary already built (e.g. an older one)
#   REQUESTS=300 CONNECTIONS=300 SECONDS_=15 scripts/hostile-clients.sh   # smaller
#
# Linux only (/proc). Only loopback addresses are used.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${REQUESTS:=3000}" "${CONNECTIONS:=3000}" "${SECONDS_:=20}" "${FD_LIMIT:=1024}" "${WORK:=/tmp/tonearm-hostile}"
mkdir -p "$WORK"
echo "load: $(uptime)"

source scripts/bench-support/tonearm-binary.sh

python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
tracks = [
    {"request": {"method": "GET", "url": "http://bench.local/big"}, "response": {"status": 200, "body": {"text": "x" * (1 << 20)}}},
    {"request": {"method": "GET", "url": "http://bench.local/ping"}, "response": {"status": 200, "body": {"text": "pong"}}},
]
json.dump({"formatVersion": 1, "tracks": tracks}, open(f"{work}/hostile.json", "w"))
PY

server_pid=
stop_server() { if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=; fi; }
trap stop_server EXIT

# Starts the server under the descriptor limit; sets server_pid and port.
start_server() {
    rm -f "$WORK/ready.json"
    (ulimit -n "$FD_LIMIT" && exec "$TONEARM" serve --cassette "$WORK/hostile.json" --ready-file "$WORK/ready.json") \
        >"$WORK/stdout" 2>"$WORK/stderr" &
    server_pid=$!
    for _ in $(seq 1 100); do [ -s "$WORK/ready.json" ] && break; sleep 0.1; done
    port=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$WORK/ready.json")
}

# The clients need a descriptor each, and more than the server may have.
ulimit -n $((CONNECTIONS + 256)) 2>/dev/null || true

start_server
python3 scripts/bench-support/hostile_clients.py "$port" "$server_pid" pipeline "$REQUESTS"
stop_server
sleep 1
start_server
python3 scripts/bench-support/hostile_clients.py "$port" "$server_pid" slowloris "$CONNECTIONS" "$SECONDS_"
stop_server
