#!/usr/bin/env bash
# The WireMock admin API's goals (issue 12): 10,000 mappings created through POST /__admin/mappings in
# at most 2 s in all, and match latency with 10,000 API-created mappings within 10 % of a cassette with
# 10,000 tracks. Both servers are `tonearm serve` release builds on 127.0.0.1; the same ~300-byte JSON
# bodies as scripts/bench-server.sh. CALLGRIND=1 adds scripts/wiremock-match-instructions.sh.
#
#   scripts/bench-wiremock-admin.sh               # creation, then wrk on both servers (10 s, 64 connections)
#   CALLGRIND=1 scripts/bench-wiremock-admin.sh   # also instructions per match under callgrind (load-proof)
#   SKIP_WRK=1 scripts/bench-wiremock-admin.sh    # creation only
#   PIN=1 SKIP_WRK=1 scripts/bench-wiremock-admin.sh   # creation with client and server on a core each
#
# Creation is measured four ways, each on a fresh server, each line with the server's CPU time (user +
# system, from /proc: the machine's load moves it far less than the wall clock) beside the wall clock:
#   floor:  4 Python http.client threads, one keep-alive connection each, posting the same bodies to an
#           admin path that only answers 404: what the client and the HTTP exchange cost before any
#           mapping is read (the client's own CPU time is printed);
#   create: the same client posting the 10,000 mappings (the goal's measurement);
#   PyPI wiremock client: Mappings.create_mapping from 4 threads, as a WireMock user's suite creates
#           them (it opens a new connection per call), when WIREMOCK_PYTHON has the package;
#   wrk:    wrk (2 threads, 8 connections) posting new mappings for CREATE_DURATION (3 s): the server's
#           own rate without the Python client's cost.
# Needs wrk (and valgrind for CALLGRIND=1); Linux (/proc).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-10000}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
REQUESTS=${REQUESTS:-2000}
CREATE_DURATION=${CREATE_DURATION:-3s}
# A Python with the PyPI `wiremock` client (.ci/run makes this one); absent: that line is skipped.
WIREMOCK_PYTHON=${WIREMOCK_PYTHON:-.build/python-venv/bin/python}
# PIN=1: during creation the clients run on CPU 0 and the server on CPU 1 (taskset). Unpinned, the
# scheduler tends to run the server's event loop on the client's core, and the two take turns.
if [ "${PIN:-0}" = 1 ]; then CLIENT_CPU="taskset -c 0"; SERVER_CPU="taskset -c 1"; else CLIENT_CPU=""; SERVER_CPU=""; fi
WORK=${WORK:-/tmp/tonearm-bench-wiremock}
mkdir -p "$WORK"

source scripts/bench-support/tonearm-binary.sh

python3 scripts/bench-support/bench_cassette.py "$WORK" "$COUNT"
PYTHONPATH=scripts/bench-support python3 - "$WORK" "$COUNT" <<'PY'
import json, os, sys
from bench_cassette import body
work, count = sys.argv[1], int(sys.argv[2])
mappings = [{"request": {"method": "GET", "url": f"/items/{i}"},
             "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": body(i)}}
            for i in range(count)]
json.dump(mappings, open(f"{work}/mappings.json", "w"))
os.makedirs(f"{work}/root/mappings", exist_ok=True)
json.dump({"mappings": mappings}, open(f"{work}/root/mappings/all.json", "w"))
# wrk's creation script: every request a new exact mapping, the same body, a distinct URL per thread and request.
template = json.dumps({"request": {"method": "GET", "url": "@URL@"},
                       "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": body(0)}})
before, after = template.split("@URL@")
open(f"{work}/create.lua", "w").write(f"""
local before, after = {json.dumps(before)}, {json.dumps(after)}
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
function init(args) sent = 0 end
function request()
  sent = sent + 1
  return wrk.format("POST", "/__admin/mappings", {{["Content-Type"] = "application/json"}}, before .. "/created/" .. id .. "/" .. sent .. after)
end
""")
for name, prefix in (("cassette", "/bench.local/items/"), ("mappings", "/items/")):
    open(f"{work}/{name}.lua", "w").write(f"""
math.randomseed(42)
request = function()
  return wrk.format("GET", "{prefix}" .. math.random(0, {count - 1}))
end
""")
PY

PIDS=()
trap 'for p in "${PIDS[@]}"; do kill $p 2>/dev/null || true; done' EXIT

start_server() {  # name args...: starts tonearm serve, sets URL
    local name=$1; shift
    rm -f "$WORK/$name.out"
    "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
    PIDS+=($!)
    SERVER_PID=$!
    until [ -s "$WORK/$name.out" ]; do
        kill -0 "$SERVER_PID" 2>/dev/null || { echo "$name exited:" >&2; tail -5 "$WORK/$name.err" >&2; exit 1; }
        sleep 0.05
    done
    URL=$(head -1 "$WORK/$name.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
}

run_wrk() {  # name url script
    local out rps p50 p99 non2xx
    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$3" "$2")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
    printf '%-34s %12s req/s   p50 %-9s p99 %-9s non-2xx %s\n' "$1" "$rps" "$p50" "$p99" "${non2xx:-0}"
}

server_cpu() {  # pid: CPU seconds (user + system) the process has used so far
    awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"
}

cpu_since() {  # seconds: the server's CPU seconds since then
    printf '%.2f' "$(echo "$(server_cpu "$SERVER_PID") - $1" | bc)"
}

total_mappings() {  # url
    curl -sf "$1/__admin/mappings?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["total"])'
}

post_mappings() {  # url path: POSTs every mapping to path from 4 client threads; prints wall and client CPU
    $CLIENT_CPU python3 - "$1" "$2" "$WORK/mappings.json" <<'PY'
import http.client, json, sys, threading, time, urllib.parse
url, path, mappings = urllib.parse.urlsplit(sys.argv[1]), sys.argv[2], [json.dumps(m) for m in json.load(open(sys.argv[3]))]
statuses = {}
def post(chunk):
    connection = http.client.HTTPConnection(url.hostname, url.port)
    for body in chunk:
        connection.request("POST", path, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        statuses[response.status] = statuses.get(response.status, 0) + 1
threads = [threading.Thread(target=post, args=(mappings[i::4],)) for i in range(4)]
start, cpu = time.perf_counter(), time.process_time()
for t in threads: t.start()
for t in threads: t.join()
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
print(f"{len(mappings)} POSTs to {path} in {elapsed:.2f} s ({elapsed / len(mappings) * 1e6:.0f} us each); "
      f"client CPU {cpu:.2f} s; statuses {dict(sorted(statuses.items()))}")
PY
}

measure_creation() {  # each on a fresh server: the Python client's floor, the Python client, then wrk
    local before out requests rate cpu
    start_server floor $SERVER_CPU "$TONEARM" serve --journal-limit 1000
    before=$(server_cpu "$SERVER_PID")
    out=$(post_mappings "$URL" /__admin/bench-floor)
    echo "floor:  $out; server CPU $(cpu_since "$before") s"
    kill "$SERVER_PID"
    start_server create $SERVER_CPU "$TONEARM" serve --journal-limit 1000
    before=$(server_cpu "$SERVER_PID")
    out=$(post_mappings "$URL" /__admin/mappings)
    echo "create: $out; server CPU $(cpu_since "$before") s; held $(total_mappings "$URL")"
    kill "$SERVER_PID"
    if [ -x "$WIREMOCK_PYTHON" ]; then
        start_server wiremock-create $SERVER_CPU "$TONEARM" serve --journal-limit 1000
        before=$(server_cpu "$SERVER_PID")
        out=$($CLIENT_CPU "$WIREMOCK_PYTHON" scripts/bench-support/wiremock_client_create.py "$URL" "$COUNT")
        echo "PyPI wiremock client: $out; server CPU $(cpu_since "$before") s; held $(total_mappings "$URL")"
        kill "$SERVER_PID"
    fi
    start_server wrk-create $SERVER_CPU "$TONEARM" serve --journal-limit 1000
    before=$(server_cpu "$SERVER_PID")
    out=$($CLIENT_CPU wrk -t2 -c8 -d"$CREATE_DURATION" -s "$WORK/create.lua" "$URL")
    cpu=$(cpu_since "$before")
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    rate=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    printf 'wrk:    %s mappings in %s (%s/s, %.2f s per 10,000); server CPU %s s (%d us each); held %s; non-2xx %s\n' \
        "$requests" "$CREATE_DURATION" "$rate" "$(echo "10000 / $rate" | bc -l)" "$cpu" \
        "$(echo "$cpu * 1000000 / $requests" | bc)" "$(total_mappings "$URL")" "$(echo "$out" | awk '/Non-2xx/ {n = $NF} END {print n + 0}')"
    kill "$SERVER_PID"
}

echo "load: $(uptime)"
measure_creation

if [ "${SKIP_WRK:-0}" != 1 ]; then
start_server mappings "$TONEARM" serve --journal-limit 1000
post_mappings "$URL" /__admin/mappings >/dev/null
curl -sf "$URL/items/0" >/dev/null
MAPPINGS_URL=$URL
start_server cassette "$TONEARM" serve --cassette "$WORK/cassette.json" --mode replay --journal-limit 1000
curl -sf "$URL/bench.local/items/0" >/dev/null
CASSETTE_URL=$URL
for round in 1 2; do
    run_wrk "cassette, $COUNT tracks (round $round)" "$CASSETTE_URL" "$WORK/cassette.lua"
    run_wrk "API mappings, $COUNT (round $round)" "$MAPPINGS_URL" "$WORK/mappings.lua"
done
for p in "${PIDS[@]}"; do kill $p 2>/dev/null || true; done
PIDS=()
fi

if [ "${CALLGRIND:-0}" = 1 ]; then
    # valgrind 3.19 crashes on the whole server (libdispatch's signal thread), so the instructions are
    # counted where the two servers differ: one engine match, API mappings' engine against a cassette's.
    scripts/wiremock-match-instructions.sh
fi
