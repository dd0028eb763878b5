#!/usr/bin/env bash
# The WireMock admin API's goals (issue 12): 10,000 mappings created through POST /__admin/mappings in
# at most 2 s in all, and match latency with 10,000 API-created mappings within 10 % of a cassette with
# 10,000 tracks. Both servers are `tonearm serve` release builds on 127.0.0.1; the same ~300-byte JSON
# bodies as scripts/bench-server.sh. CALLGRIND=1 adds scripts/wiremock-match-instructions.sh.
#
#   scripts/bench-wiremock-admin.sh               # creation time, then wrk on both servers (10 s, 64 connections)
#   CALLGRIND=1 scripts/bench-wiremock-admin.sh   # also instructions per match under callgrind (load-proof)
#
# Creation uses 4 client threads, each with one keep-alive connection (Python's http.client, so the
# client's own cost is included in the 2 s). Needs wrk (and valgrind for CALLGRIND=1).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-10000}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
REQUESTS=${REQUESTS:-2000}
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

create_mappings() {  # url: POSTs every mapping, prints the seconds taken
    python3 - "$1" "$WORK/mappings.json" <<'PY'
import http.client, json, sys, threading, time, urllib.parse
url, mappings = urllib.parse.urlsplit(sys.argv[1]), [json.dumps(m) for m in json.load(open(sys.argv[2]))]
failures = []
def post(chunk):
    connection = http.client.HTTPConnection(url.hostname, url.port)
    for body in chunk:
        connection.request("POST", "/__admin/mappings", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        if response.status != 201: failures.append(response.status)
threads = [threading.Thread(target=post, args=(mappings[i::4],)) for i in range(4)]
start = time.perf_counter()
for t in threads: t.start()
for t in threads: t.join()
elapsed = time.perf_counter() - start
connection = http.client.HTTPConnection(url.hostname, url.port)
connection.request("GET", "/__admin/mappings?limit=1")
total = json.loads(connection.getresponse().read())["meta"]["total"]
print(f"created {total} mappings through POST /__admin/mappings in {elapsed:.2f} s ({elapsed / len(mappings) * 1e6:.0f} us each, 4 client threads); failures: {len(failures)}")
PY
}

if [ "${SKIP_WRK:-0}" != 1 ]; then
start_server mappings "$TONEARM" serve --journal-limit 1000
create_mappings "$URL"
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
