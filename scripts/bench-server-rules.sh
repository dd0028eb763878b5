#!/usr/bin/env bash
# Rule sets through the server (issue 33), side by side in one run: `tonearm serve` replaying a cassette
# (exact tracks, found by key), `tonearm serve --rules` with 100 / 1,000 / 10,000 rules of the issue's
# shape, the same 10,000 rules as WireMock `urlPathPattern` mappings loaded by `tonearm serve --root-dir`,
# and the WireMock 2.35.1 jar on that same root directory. Per server: start-up (launch to the first
# answer of a mapped URL, and the process's CPU time by then: steadier on a shared machine), resident
# memory then (after loading) and after the load, requests/s and CPU per request (the server process's
# user + system time from /proc/PID/stat over the measured runs, divided by the requests wrk counted). Each server is pinned to core 0 and `wrk -t1 -c16` to core 1
# (taskset), one server at a time, as `PIN=1 scripts/bench-server.sh` runs.
#
# Rules: `^https://api\.example\.com/v1/res<i>/[0-9]+/items$` (one literal prefix, differing after it),
# asked for with the host in the path (`/api.example.com/v1/res<i>/<id>/items`); mappings:
# `{"urlPathPattern": "/v1/res<i>/[0-9]+/items"}` (or MAPPING_KIND), asked for as `/v1/res<i>/<id>/items`.
# Every request names a random rule and id, so requests spread over all rules; each answers a ~300-byte
# JSON body (scripts/bench-support/bench_cassette.py's). The replay row asks for random tracks of a 10,000-track
# cassette of the same bodies.
#
#   scripts/bench-server-rules.sh                     # every row, 3 rounds of 5 s each after a warm-up
#   ROWS="rootdir wiremock" scripts/bench-server-rules.sh   # some rows only: replay rules rootdir wiremock
#   COUNTS="100 10000" scripts/bench-server-rules.sh  # rule counts of the rules rows (rootdir and
#                                                     # wiremock take the largest)
#   MAPPING_KIND=urlPattern scripts/bench-server-rules.sh   # the mappings as urlPattern (path and query)
#   TONEARM=/path/to/tonearm scripts/bench-server-rules.sh  # a binary already built (no build step)
#   ROUNDS=1 DURATION=3s WARMUP=2s JAVA_WARMUP=5s scripts/bench-server-rules.sh   # a quick check
#
# WireMock runs with `--no-request-journal --disable-request-logging --container-threads 64` (so no
# connection waits for a thread and no journal grows), after JAVA_WARMUP (10 s) of the same load for its
# JIT; Tonearm's servers get WARMUP (2 s) and keep their journal at 1,000 entries (`--journal-limit`).
# Needs wrk, taskset, java and the WireMock jar (JAR=path; by default the one in .build/python-venv, or
# in the main checkout's). Only loopback addresses are used.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNTS=${COUNTS:-100 1000 10000}
ROWS=${ROWS:-replay rules rootdir wiremock}
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
WARMUP=${WARMUP:-2s}
JAVA_WARMUP=${JAVA_WARMUP:-10s}
TRACKS=${TRACKS:-10000}
MAPPING_KIND=${MAPPING_KIND:-urlPathPattern}
WORK=${WORK:-/tmp/tonearm-bench-server-rules}
LARGEST=$(tr ' ' '\n' <<<"$COUNTS" | sort -n | tail -1)
wants() { [[ " $ROWS " == *" $1 "* ]]; }

if wants wiremock; then
    JAR=${JAR:-$(ls .build/python-venv/lib/python3.*/site-packages/wiremock/server/wiremock-standalone-2.35.1.jar \
        /work/main/.build/python-venv/lib/python3.*/site-packages/wiremock/server/wiremock-standalone-2.35.1.jar 2>/dev/null | head -1 || true)}
    [ -n "$JAR" ] && [ -f "$JAR" ] || { echo "no WireMock jar: set JAR=path/to/wiremock-standalone-2.35.1.jar" >&2; exit 1; }
fi
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK/root/mappings" "$WORK/root/__files"
echo "load: $(uptime)"
source scripts/bench-support/tonearm-binary.sh
echo "tonearm: $TONEARM"

# The cassette and wrk's replay script, the rule files and mappings, and wrk's scripts for them.
python3 scripts/bench-support/bench_cassette.py "$WORK" "$TRACKS"
PYTHONPATH=scripts/bench-support python3 - "$WORK" "$MAPPING_KIND" "$LARGEST" $COUNTS <<'PY'
import json, sys
from bench_cassette import body
work, kind, largest, counts = sys.argv[1], sys.argv[2], int(sys.argv[3]), [int(c) for c in sys.argv[4:]]
headers = {"Content-Type": "application/json"}
for count in counts:
    rules = [{"name": f"res{i}", "method": "GET", "pattern": rf"^https://api\.example\.com/v1/res{i}/[0-9]+/items$",
              "headers": headers, "body": body(i)} for i in range(count)]
    json.dump({"rules": rules}, open(f"{work}/rules-{count}.json", "w"))
    for name, prefix in ((f"rules-{count}.lua", "/api.example.com/v1/res"), (f"mappings-{count}.lua", "/v1/res")):
        open(f"{work}/{name}", "w").write(f"""
math.randomseed(42)
request = function()
  return wrk.format("GET", "{prefix}" .. math.random(0, {count - 1}) .. "/" .. math.random(0, 99999) .. "/items")
end
""")
mappings = [{"request": {"method": "GET", kind: f"/v1/res{i}/[0-9]+/items"},
             "response": {"status": 200, "headers": headers, "body": body(i)}} for i in range(largest)]
json.dump({"mappings": mappings}, open(f"{work}/root/mappings/all.json", "w"))
PY

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
rss_mib() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)
server_pid=
stop_server() { [ -z "$server_pid" ] || { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true; server_pid=; }; }
trap stop_server EXIT

declare -A STARTUP=() STARTUP_CPU=() RSS_LOADED=() RSS_AFTER=() RATE=() CPU=() ERRORS=()
NAMES=()

# measure NAME URL SCRIPT WARMUP_TIME COMMAND...: starts COMMAND on core 0, times it to the first answer
# of URL + the script's first path, then warm-up and ROUNDS runs of wrk on core 1.
measure() {
    local name=$1 url=$2 script=$3 warmup=$4 probe start ready
    shift 4
    probe="$url$(sed -n 's/.*wrk.format("GET", "\([^"]*\)".*/\1/p' "$script")0/12345/items"
    [[ "$script" == */paths.lua ]] && probe="$url/bench.local/items/0"
    start=$(date +%s%N)
    taskset -c 0 "$@" >"$WORK/server.out" 2>"$WORK/server.err" &
    server_pid=$!
    for _ in $(seq 12000); do
        curl -sf -o /dev/null "$probe" && break
        kill -0 "$server_pid" 2>/dev/null || { echo "$name exited: $(tail -3 "$WORK/server.err")" >&2; exit 1; }
        sleep 0.01
    done
    curl -sf -o /dev/null "$probe" || { echo "$name does not answer $probe" >&2; exit 1; }
    ready=$(date +%s%N)
    NAMES+=("$name")
    STARTUP[$name]=$(( (ready - start) / 1000000 ))
    STARTUP_CPU[$name]=$(( $(cpu_ticks "$server_pid") * 1000 / HZ ))
    RSS_LOADED[$name]=$(rss_mib "$server_pid")
    taskset -c 1 wrk -t1 -c16 -d"$warmup" -s "$script" "$url" >/dev/null
    local before after requests=0 rates=() out errors=""
    before=$(cpu_ticks "$server_pid")
    for round in $(seq "$ROUNDS"); do
        out=$(taskset -c 1 wrk -t1 -c16 -d"$DURATION" -s "$script" "$url")
        requests=$(( requests + $(awk '/requests in/ {print $1}' <<<"$out") ))
        rates+=("$(awk '/Requests\/sec/ {print $2}' <<<"$out")")
        errors+=$(grep -E "Non-2xx|Socket errors" <<<"$out" | tr '\n' ' ' || true)
    done
    after=$(cpu_ticks "$server_pid")
    RSS_AFTER[$name]=$(rss_mib "$server_pid")
    RATE[$name]=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.0f", a[int((NR+1)/2)]}')
    CPU[$name]=$(awk -v t=$(( after - before )) -v hz="$HZ" -v n="$requests" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
    ERRORS[$name]=$errors
    printf '%-36s start-up %6s ms (CPU %6s ms)  RSS %5s MiB loaded, %5s MiB after  %9s req/s (rounds: %s)  %8s µs CPU/request %s\n' \
        "$name" "${STARTUP[$name]}" "${STARTUP_CPU[$name]}" "${RSS_LOADED[$name]}" "${RSS_AFTER[$name]}" "${RATE[$name]}" "${rates[*]}" "${CPU[$name]}" "$errors"
    stop_server
}

tonearm_url() {  # the port of a `tonearm serve --port PORT` about to start
    echo "http://127.0.0.1:$1"
}

# For scale: a `tonearm serve` with nothing to load, to its listening line.
rm -f "$WORK/empty.out"
start=$(date +%s%N)
taskset -c 0 "$TONEARM" serve --port "$(free_port)" --mode replay >"$WORK/empty.out" 2>"$WORK/empty.err" &
server_pid=$!
until [ -s "$WORK/empty.out" ]; do sleep 0.005; done
echo "tonearm serve with nothing loaded: listening after $(( ($(date +%s%N) - start) / 1000000 )) ms, RSS $(rss_mib "$server_pid") MiB"
stop_server

if wants replay; then
    port=$(free_port)
    measure "tonearm replay ($TRACKS tracks)" "$(tonearm_url "$port")" "$WORK/paths.lua" "$WARMUP" \
        "$TONEARM" serve --port "$port" --cassette "$WORK/cassette.json" --mode replay --journal-limit 1000
fi
if wants rules; then
    for count in $COUNTS; do
        port=$(free_port)
        measure "tonearm --rules ($count rules)" "$(tonearm_url "$port")" "$WORK/rules-$count.lua" "$WARMUP" \
            "$TONEARM" serve --port "$port" --rules "$WORK/rules-$count.json" --mode replay --journal-limit 1000
    done
fi
if wants rootdir; then
    port=$(free_port)
    measure "tonearm --root-dir ($LARGEST mappings)" "$(tonearm_url "$port")" "$WORK/mappings-$LARGEST.lua" "$WARMUP" \
        "$TONEARM" serve --port "$port" --root-dir "$WORK/root" --journal-limit 1000
fi
if wants wiremock; then
    port=$(free_port)
    measure "WireMock 2.35.1 ($LARGEST mappings)" "http://127.0.0.1:$port" "$WORK/mappings-$LARGEST.lua" "$JAVA_WARMUP" \
        java -jar "$JAR" --port "$port" --bind-address 127.0.0.1 --root-dir "$WORK/root" --disable-banner \
        --no-request-journal --disable-request-logging --container-threads 64
    echo "($(java -version 2>&1 | head -1))"
fi

echo
echo "side by side: each server on core 0, wrk -t1 -c16 on core 1, $ROUNDS × $DURATION (median requests/s;"
echo "CPU per request over all rounds), load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '| %-36s | %10s | %12s | %10s | %12s | %11s | %10s |\n' server start-up "start-up CPU" "RSS loaded" requests/s "CPU/request" "vs replay"
printf '| %-36s | %10s | %12s | %10s | %12s | %11s | %10s |\n' --- ---: ---: ---: ---: ---: ---:
REPLAY_CPU=${CPU["tonearm replay ($TRACKS tracks)"]:-}
for name in "${NAMES[@]}"; do
    ratio=$([ -n "$REPLAY_CPU" ] && awk -v a="${CPU[$name]}" -v b="$REPLAY_CPU" 'BEGIN {printf "%.2f×", a / b}' || echo "")
    printf '| %-36s | %7s ms | %9s ms | %6s MiB | %12s | %8s µs | %10s |\n' "$name" "${STARTUP[$name]}" "${STARTUP_CPU[$name]}" "${RSS_LOADED[$name]}" \
        "${RATE[$name]}" "${CPU[$name]}" "$ratio"
done

# The issue's goals, for the rows this run has.
echo
check() {  # description value limit
    awk -v d="$1" -v v="$2" -v l="$3" 'BEGIN {printf "%-70s %10s ≤ %-8s %s\n", d, v, l, (v + 0 <= l + 0 ? "met" : "NOT met")}'
}
smallest=$(tr ' ' '\n' <<<"$COUNTS" | sort -n | head -1)
LARGE="tonearm --rules ($LARGEST rules)"
SMALL="tonearm --rules ($smallest rules)"
ROOT="tonearm --root-dir ($LARGEST mappings)"
if [ -n "${CPU[$LARGE]:-}" ]; then
    [ -n "$REPLAY_CPU" ] && check "$LARGEST rules: CPU per request ÷ exact replay's" \
        "$(awk -v a="${CPU[$LARGE]}" -v b="$REPLAY_CPU" 'BEGIN {printf "%.2f", a / b}')" 2
    [ -n "${CPU[$SMALL]:-}" ] && [ "$SMALL" != "$LARGE" ] && check "$LARGEST rules: CPU per request ÷ $smallest rules'" \
        "$(awk -v a="${CPU[$LARGE]}" -v b="${CPU[$SMALL]}" 'BEGIN {printf "%.2f", a / b}')" 2
    check "$LARGEST rules (--rules): start-up, ms" "${STARTUP[$LARGE]}" 1000
    check "$LARGEST rules (--rules): start-up CPU, ms" "${STARTUP_CPU[$LARGE]}" 1000
    check "$LARGEST rules (--rules): resident after loading, MiB" "${RSS_LOADED[$LARGE]}" 100
fi
if [ -n "${CPU[$ROOT]:-}" ]; then
    [ -n "$REPLAY_CPU" ] && check "$LARGEST mappings (--root-dir): CPU per request ÷ exact replay's" \
        "$(awk -v a="${CPU[$ROOT]}" -v b="$REPLAY_CPU" 'BEGIN {printf "%.2f", a / b}')" 2
    check "$LARGEST mappings (--root-dir): start-up, ms" "${STARTUP[$ROOT]}" 1000
    check "$LARGEST mappings (--root-dir): start-up CPU, ms" "${STARTUP_CPU[$ROOT]}" 1000
    check "$LARGEST mappings (--root-dir): resident after loading, MiB" "${RSS_LOADED[$ROOT]}" 100
fi
