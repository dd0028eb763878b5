#!/usr/bin/env bash
# Adding and removing one rule on a live engine of 10,000 (issue 33): `tonearm serve --rules` with
# COUNT rules of the issue's shape (`^https://api\.example\.com/v1/res<i>/[0-9]+/items$`), then ADDS
# pattern stubs posted one at a time to `POST /__tonearm/stubs`; and `tonearm serve --root-dir` with the
# same COUNT as WireMock `urlPathPattern` mappings, then ADDS mappings posted one at a time to
# `POST /__admin/mappings`, each deleted again (`DELETE /__admin/mappings/{id}`). Prints the wall time of
# each call as the client sees it (one keep-alive connection, loopback): median, 99th percentile and
# slowest, and the resident memory before and after. Every added rule is new (its own number), so the
# engine's blocks are rebuilt as adds complete them: one add in 16 rebuilds a block of up to 256 rules,
# one in 256 one of up to 4,096, one in 4,096 one of up to 16,384 (docs/benchmarks.md, "Rule sets").
#
#   scripts/bench-live-rules.sh                          # COUNT=10000 ADDS=1024
#   TONEARM=.build-bench/release/tonearm COUNT=10000 ADDS=4096 scripts/bench-live-rules.sh
#   ROWS=rules scripts/bench-live-rules.sh               # one server only: rules rootdir
# Only loopback addresses are used.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-10000}
ADDS=${ADDS:-1024}
WORK=${WORK:-/tmp/tonearm-bench-live-rules}
rm -rf "$WORK" && mkdir -p "$WORK/root/mappings" "$WORK/root/__files"
echo "load: $(uptime)"
source scripts/bench-support/tonearm-binary.sh
echo "tonearm: $TONEARM"

python3 - "$WORK" "$COUNT" <<'PY'
import json, sys
work, count = sys.argv[1], int(sys.argv[2])
rules = [{"name": f"res{i}", "method": "GET", "pattern": rf"^https://api\.example\.com/v1/res{i}/[0-9]+/items$",
          "body": f"rule {i}"} for i in range(count)]
json.dump({"rules": rules}, open(f"{work}/rules.json", "w"))
mappings = [{"request": {"method": "GET", "urlPathPattern": f"/v1/res{i}/[0-9]+/items"},
             "response": {"status": 200, "body": f"mapping {i}"}} for i in range(count)]
json.dump({"mappings": mappings}, open(f"{work}/root/mappings/all.json", "w"))
PY

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
server_pid=
stop_server() { [ -z "$server_pid" ] || { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true; server_pid=; }; }
trap stop_server EXIT

# run NAME KIND COMMAND...: starts the server, waits for its first answer, then times the adds.
run() {
    local name=$1 kind=$2 port
    shift 2
    port=$(free_port)
    "$@" --port "$port" >"$WORK/server.out" 2>"$WORK/server.err" &
    server_pid=$!
    python3 - "$name" "$kind" "$port" "$server_pid" "$COUNT" "$ADDS" <<'PY'
import http.client, json, statistics, sys, time
name, kind, port, pid, count, adds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) // 1024
probe = "/api.example.com/v1/res1/5/items" if kind == "rules" else "/v1/res1/5/items"
for _ in range(3000):
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30); c.request("GET", probe)
        if c.getresponse().status == 200: break
    except OSError: pass
    time.sleep(0.01)
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
def call(method, path, body=None):
    start = time.perf_counter()
    connection.request(method, path, body=json.dumps(body) if body is not None else None,
                       headers={"Content-Type": "application/json"})
    response = connection.getresponse(); data = response.read()
    spent = time.perf_counter() - start
    if response.status >= 300: sys.exit(f"{method} {path}: {response.status} {data[:200]!r}")
    return spent, data
before = rss()
added, removed = [], []
for i in range(count, count + adds):
    if kind == "rules":
        spent, _ = call("POST", "/__tonearm/stubs", [{"name": f"live{i}", "method": "GET",
                        "pattern": rf"^https://api\.example\.com/v1/res{i}/[0-9]+/items$", "body": f"live {i}"}])
    else:
        spent, data = call("POST", "/__admin/mappings", {"request": {"method": "GET", "urlPathPattern": f"/v1/res{i}/[0-9]+/items"},
                                                      "response": {"status": 200, "body": f"live {i}"}})
        removed.append(json.loads(data)["id"])
    added.append(spent)
last = count + adds - 1
check = f"/api.example.com/v1/res{last}/7/items" if kind == "rules" else f"/v1/res{last}/7/items"
connection.request("GET", check); answer = connection.getresponse(); answer.read()
assert answer.status == 200, f"the last rule added does not answer: {answer.status}"
after = rss()
deletes = [call("DELETE", f"/__admin/mappings/{id}")[0] for id in removed]
def summary(samples):
    samples = sorted(samples)
    return (f"median {statistics.median(samples) * 1000:.2f} ms, p99 {samples[int(len(samples) * 0.99) - 1] * 1000:.2f} ms, "
            f"slowest {samples[-1] * 1000:.1f} ms")
slowest = sorted(range(len(added)), key=lambda i: -added[i])[:3]
print(f"{name}: {len(added)} adds: {summary(added)}; resident {before} → {after} MiB; slowest adds: "
      + ", ".join(f"rule {count + i + 1} ({added[i] * 1000:.1f} ms)" for i in slowest))
if deletes: print(f"{name}: {len(deletes)} removals: {summary(deletes)}")
PY
    stop_server
}

ROWS=${ROWS:-rules rootdir}
[[ " $ROWS " != *" rules "* ]] || run "tonearm --rules ($COUNT rules), POST /__tonearm/stubs" rules "$TONEARM" serve --rules "$WORK/rules.json" --mode replay --journal-limit 1000
[[ " $ROWS " != *" rootdir "* ]] || run "tonearm --root-dir ($COUNT mappings), POST /__admin/mappings" rootdir "$TONEARM" serve --root-dir "$WORK/root" --journal-limit 1000
