#!/usr/bin/env bash
# The WireMock admin API's goals (issue 12): 10,000 mappings created through POST /__admin/mappings in
# at most 2 s in all, and match latency with 10,000 API-created mappings within 10 % of a cassette with
# 10,000 tracks. Both servers are `tonearm serve` release builds on 127.0.0.1; the same ~300-byte JSON
# bodies as scripts/bench-server.sh.
#
#   scripts/bench-wiremock-admin.sh               # creation time, then wrk on both servers (10 s, 64 connections)
#   CALLGRIND=1 scripts/bench-wiremock-admin.sh   # also instructions per request under callgrind (quiet-machine-proof)
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

CONFIG=${CONFIG:-release}
SCRATCH=${SCRATCH:-.build-bench}
swift build -c "$CONFIG" --product tonearm --scratch-path "$SCRATCH" >/dev/null
TONEARM=$(swift build -c "$CONFIG" --scratch-path "$SCRATCH" --show-bin-path)/tonearm

python3 - "$WORK" "$COUNT" <<'PY'
import json, os, sys
work, count = sys.argv[1], int(sys.argv[2])
def body(i):
    text = json.dumps({"id": i, "name": f"item {i}", "description": "x" * 200, "price": i % 997, "tags": ["a", "b"]}, separators=(",", ":"))
    return text[:300].ljust(300) if len(text) >= 300 else text + " " * (300 - len(text))
tracks = [{"request": {"method": "GET", "url": f"http://bench.local/items/{i}"},
           "response": {"status": 200, "headers": [["Content-Type", "application/json"]], "body": {"text": body(i)}}}
          for i in range(count)]
json.dump({"formatVersion": 1, "tracks": tracks}, open(f"{work}/cassette.json", "w"))
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
    until [ -s "$WORK/$name.out" ]; do sleep 0.05; done
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

if [ "${CALLGRIND:-0}" = 1 ]; then
    # Instructions per request: counters zeroed once the server is loaded and warm, then REQUESTS
    # random GETs on one keep-alive connection, then a dump; the count covers NIO, routing, matching,
    # journaling and writing the answer.
    measure() {  # name path-prefix args...
        local name=$1 prefix=$2; shift 2
        rm -f "$WORK"/callgrind.out.*
        start_server "callgrind-$name" valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out.%p" "$@"
        python3 - "$URL" "$prefix" "$COUNT" 200 <<'PY'
import http.client, random, sys, urllib.parse
url, prefix, count, n = urllib.parse.urlsplit(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
random.seed(7)
c = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
for _ in range(n):
    c.request("GET", prefix + str(random.randrange(count))); r = c.getresponse(); r.read(); assert r.status == 200
PY
        callgrind_control -z "$SERVER_PID" >/dev/null
        python3 - "$URL" "$prefix" "$COUNT" "$REQUESTS" <<'PY'
import http.client, random, sys, urllib.parse
url, prefix, count, n = urllib.parse.urlsplit(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
random.seed(11)
c = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
for _ in range(n):
    c.request("GET", prefix + str(random.randrange(count))); r = c.getresponse(); r.read(); assert r.status == 200
PY
        callgrind_control -d "$SERVER_PID" >/dev/null
        sleep 1
        local total
        total=$(cat "$WORK"/callgrind.out.* | awk '/^summary:/ {s += $2} END {print s}')
        printf '%-34s %12d instructions per request (%d requests)\n' "$name" "$((total / REQUESTS))" "$REQUESTS"
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    }
    measure "cassette, $COUNT tracks" /bench.local/items/ "$TONEARM" serve --cassette "$WORK/cassette.json" --mode replay --journal-limit 1000
    measure "root-dir mappings, $COUNT" /items/ "$TONEARM" serve --root-dir "$WORK/root" --journal-limit 1000
fi
