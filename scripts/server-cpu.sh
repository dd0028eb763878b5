#!/usr/bin/env bash
# CPU time per request of `tonearm serve --mode replay`: the server's own user+system time (from
# /proc/PID/stat) across exactly REQUESTS keep-alive GETs of distinct tracks on one connection from a
# Python client, after a warm-up. A measure of the request path's cost that a shared, loaded machine
# disturbs far less than requests/s. (Callgrind would count instructions, but Valgrind 3.19 cannot read
# Swift's DWARF 5 and crashes under libdispatch here; the VM exposes no hardware counters to perf.)
#
#   scripts/server-cpu.sh                  # 10,000 tracks, 20,000 counted requests, 3 rounds
#   REQUESTS=50000 ROUNDS=5 scripts/server-cpu.sh
#   CONNECTIONS=64 DURATION=10s scripts/server-cpu.sh   # wrk, 64 keep-alive connections, random tracks;
#                                                        # the request count is wrk's
#   TONEARM=/path/to/other/tonearm scripts/server-cpu.sh  # another build (no build step)
set -euo pipefail
cd "$(dirname "$0")/.."
TRACKS=${TRACKS:-10000}
REQUESTS=${REQUESTS:-20000}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-1}
DURATION=${DURATION:-10s}
WORK=${WORK:-/tmp/tonearm-cpu}
mkdir -p "$WORK"
source scripts/bench-support/tonearm-binary.sh
python3 scripts/bench-support/bench_cassette.py "$WORK" "$TRACKS"
echo "load: $(uptime)"
rm -f "$WORK/tonearm.out"
"$TONEARM" serve --cassette "$WORK/cassette.json" --mode replay --journal-limit 1000 >"$WORK/tonearm.out" 2>"$WORK/tonearm.err" &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
until [ -s "$WORK/tonearm.out" ]; do sleep 0.05; done
PORT=$(head -1 "$WORK/tonearm.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"].rsplit(":",1)[1])')

cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
client() {  # count
    python3 - "$PORT" "$1" "$TRACKS" <<'PY'
import http.client, sys
port, count, tracks = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
connection = http.client.HTTPConnection("127.0.0.1", port)
for i in range(count):
    connection.request("GET", f"/bench.local/items/{(i * 7919) % tracks}")
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
PY
}
many() {  # duration: wrk on CONNECTIONS connections; prints the number of requests answered
    wrk -t2 -c"$CONNECTIONS" -d"$1" -s "$WORK/paths.lua" "http://127.0.0.1:$PORT" | awk '/requests in/ {print $1}'
}
if [ "$CONNECTIONS" -gt 1 ]; then many 2s >/dev/null; else client 2000; fi  # warm-up
HZ=$(getconf CLK_TCK)
echo "binary: $TONEARM, connections: $CONNECTIONS"
for round in $(seq "$ROUNDS"); do
    before=$(cpu_ticks)
    if [ "$CONNECTIONS" -gt 1 ]; then count=$(many "$DURATION"); else client "$REQUESTS"; count=$REQUESTS; fi
    after=$(cpu_ticks)
    echo "round $round: $count requests, server CPU $(( (after - before) * 1000 / HZ )) ms, $(( (after - before) * 1000000000 / HZ / count )) ns/request"
done
