#!/usr/bin/env bash
# Replay throughput with COUNT WireMock mappings (10,000 by default): `tonearm serve --root-dir` against
# WireMock 2.35.1 itself (the jar PyPI's `wiremock` package ships) on the same root directory, each
# server pinned to CPU 0 and wrk (one thread, 16 keep-alive connections) to CPU 1, one server at a time.
# Every request is a GET of a random mapped URL answered by a ~300-byte JSON body (the same bodies as
# scripts/bench-server.sh); both servers keep their request journal on, as by default.
#
#   scripts/bench-wiremock-replay.sh                  # 10,000 exact mappings (`url`), 3 rounds of 10 s
#   KIND=pattern scripts/bench-wiremock-replay.sh     # urlPathPattern mappings instead (scanned, not keyed)
#   COUNT=1000 ROUNDS=1 DURATION=3s scripts/bench-wiremock-replay.sh   # a quick check
#
# WireMock runs on the JVM: each server gets WARMUP (10 s) of the same load first, unmeasured, so the JIT
# has compiled the request path; then ROUNDS runs of DURATION, and the median is printed.
# Needs wrk, taskset, java and the virtual environment .ci/run makes (JAR=path overrides the jar).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-10000}
KIND=${KIND:-exact}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-10s}
ROUNDS=${ROUNDS:-3}
WORK=${WORK:-/tmp/tonearm-bench-wiremock-replay}
JAR=${JAR:-$(ls .build/python-venv/lib/python3.*/site-packages/wiremock/server/wiremock-standalone-2.35.1.jar 2>/dev/null | head -1)}
[ -n "$JAR" ] && [ -f "$JAR" ] || { echo "no WireMock jar: set JAR or create .build/python-venv with the wiremock package" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK/root/mappings" "$WORK/root/__files"
echo "load: $(uptime)"

source scripts/bench-support/tonearm-binary.sh

PYTHONPATH=scripts/bench-support python3 - "$WORK" "$COUNT" "$KIND" <<'PY'
import json, sys
from bench_cassette import body
work, count, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def matcher(i):
    return {"url": f"/items/{i}"} if kind == "exact" else {"urlPathPattern": f"/items/{i}(/.*)?"}
mappings = [{"request": {"method": "GET", **matcher(i)},
             "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": body(i)}}
            for i in range(count)]
json.dump({"mappings": mappings}, open(f"{work}/root/mappings/all.json", "w"))
open(f"{work}/paths.lua", "w").write(f"""
math.randomseed(42)
request = function()
  return wrk.format("GET", "/items/" .. math.random(0, {count - 1}))
end
""")
PY

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
wait_for() {  # url: until it answers (at most 120 s: WireMock reads 10,000 mappings at start)
    for _ in $(seq 1200); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done
    echo "no answer from $1" >&2; return 1
}
server_pid=
stop_server() { [ -z "$server_pid" ] || { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true; server_pid=; }; }
trap stop_server EXIT

# measure NAME PORT: warm-up, then ROUNDS runs; prints one line per round and the median.
measure() {
    local name=$1 port=$2 url="http://127.0.0.1:$2" rates=() line
    curl -sf -o /dev/null "$url/items/0" || { echo "$name does not answer /items/0" >&2; return 1; }
    taskset -c 1 wrk -t1 -c16 -d"$WARMUP" -s "$WORK/paths.lua" "$url" >/dev/null
    for round in $(seq "$ROUNDS"); do
        line=$(taskset -c 1 wrk -t1 -c16 -d"$DURATION" --latency -s "$WORK/paths.lua" "$url")
        local rate p50 p99 errors
        rate=$(awk '/Requests\/sec/ {print $2}' <<<"$line")
        p50=$(awk '$1 == "50%" {print $2}' <<<"$line")
        p99=$(awk '$1 == "99%" {print $2}' <<<"$line")
        errors=$(grep -E "Non-2xx|Socket errors" <<<"$line" | tr '\n' ' ' || true)
        printf '  %-10s round %d: %10s req/s  p50 %8s  p99 %8s %s\n' "$name" "$round" "$rate" "$p50" "$p99" "$errors"
        rates+=("$rate")
    done
    printf '%s\n' "${rates[@]}" | sort -n | awk -v n="$name" '{a[NR]=$1} END {printf "%-10s median %.0f req/s\n", n, a[int((NR+1)/2)]}' >> "$WORK/medians"
}

: > "$WORK/medians"
port=$(free_port)
taskset -c 0 "$TONEARM" serve --port "$port" --root-dir "$WORK/root" >"$WORK/tonearm.log" 2>&1 &
server_pid=$!
wait_for "http://127.0.0.1:$port/__admin/health"
echo "tonearm: $COUNT $KIND mappings, pid $server_pid"
measure tonearm "$port"
stop_server

port=$(free_port)
taskset -c 0 java -jar "$JAR" --port "$port" --bind-address 127.0.0.1 --root-dir "$WORK/root" --disable-banner \
    >"$WORK/wiremock.log" 2>&1 &
server_pid=$!
wait_for "http://127.0.0.1:$port/__admin/mappings?limit=1"
echo "wiremock: $COUNT $KIND mappings, pid $server_pid ($(java -version 2>&1 | head -1))"
measure wiremock "$port"
stop_server

echo
cat "$WORK/medians"
awk '{r[$1]=$3} END {if (r["wiremock"] > 0) printf "tonearm / wiremock: %.2f\n", r["tonearm"] / r["wiremock"]}' "$WORK/medians"
