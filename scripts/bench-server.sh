#!/usr/bin/env bash
# Side-by-side load test on 127.0.0.1 with wrk (keep-alive): `tonearm serve --mode replay` over an
# N-track cassette of ~300-byte JSON responses, nginx serving a static file of the same size (the
# ceiling on this machine), `tonearm serve` in passthrough and missing modes in front of that nginx (the
# overhead of proxying and recording), and mitmproxy replaying the same traffic in reverse-proxy mode
# (`-S flows --server-replay-reuse`). Prints one line per server: requests/s, p50, p99. Then, side by
# side with "% of nginx": nginx, the NIO floor (SwiftNIO's own NIOHTTP1Server example answering its
# hello world, built from the swift-nio checkout SwiftPM keeps in .build/checkouts, into $WORK), and
# `tonearm serve` replaying the cassette and answering a stub rule (`--rules`, one rule, the same body).
#
#   scripts/bench-server.sh                  # 10,000 tracks, 10 s per run, 64 connections
#   TRACKS=100000 scripts/bench-server.sh    # the same with 100,000 tracks
#   MITM=0 scripts/bench-server.sh           # without mitmproxy (it pip-installs into $WORK/venv once)
#   CONFIG=debug SCRATCH=.build scripts/bench-server.sh   # check the script against a debug build
#   BASELINE=/path/to/older/tonearm scripts/bench-server.sh   # also replay with an older build, same run
#   ONLY_REPLAY=1 scripts/bench-server.sh    # the side-by-side table only (no proxying, no mitmproxy)
#   PIN=1 ONLY_REPLAY=1 scripts/bench-server.sh   # per core: each server on core 0 (taskset), wrk -t1 -c16
#                                                 # on core 1 (THREADS and CONNECTIONS still override)
#   NIO=0 scripts/bench-server.sh            # without the NIO floor (its first build takes minutes)
#
# Needs wrk and nginx (apt-get install wrk nginx). Only loopback addresses are used.
set -euo pipefail
cd "$(dirname "$0")/.."

TRACKS=${TRACKS:-10000}
DURATION=${DURATION:-10s}
PIN=${PIN:-0}
if [ "$PIN" = 1 ]; then
    CONNECTIONS=${CONNECTIONS:-16}
    THREADS=${THREADS:-1}
    SERVER_CPU=(taskset -c 0)
    CLIENT_CPU=(taskset -c 1)
else
    CONNECTIONS=${CONNECTIONS:-64}
    THREADS=${THREADS:-2}
    SERVER_CPU=()
    CLIENT_CPU=()
fi
WORK=${WORK:-/tmp/tonearm-bench}
mkdir -p "$WORK"
echo "load: $(uptime)"

source scripts/bench-support/tonearm-binary.sh

# The cassette, the same-size static file, and wrk's request script (random track per request).
python3 scripts/bench-support/bench_cassette.py "$WORK" "$TRACKS"
echo "cassette: $TRACKS tracks, $(du -h "$WORK/cassette.json" | cut -f1) on disk"

wait_for() {  # url [seconds]: until it answers (at most 60 s unless told)
    for _ in $(seq $(( ${2:-60} * 10 ))); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done
    echo "no answer from $1" >&2; return 1
}

# Requests/s of each run, by name, for the side-by-side table.
declare -A RATE=()

run_wrk() {  # name url [wrk script]
    local out
    out=$("${CLIENT_CPU[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "${3:-$WORK/paths.lua}" "$2")
    local rps p50 p99 non2xx
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
    printf '%-28s %12s req/s   p50 %-9s p99 %-9s non-2xx %s\n' "$1" "$rps" "$p50" "$p99" "${non2xx:-0}"
    RATE[$1]=$rps
}

listening_url() {  # FILE: the url of the listening line `tonearm serve` wrote there, once it has
    until [ -s "$1" ]; do sleep 0.01; done
    head -1 "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])'
}

# tonearm: time to the listening line, then resident memory, then load.
rm -f "$WORK/tonearm.out"
start=$(date +%s.%N)
"${SERVER_CPU[@]}" "$TONEARM" serve --cassette "$WORK/cassette.json" --mode replay --journal-limit 1000 >"$WORK/tonearm.out" 2>"$WORK/tonearm.err" &
TONEARM_PID=$!
trap 'kill $TONEARM_PID 2>/dev/null || true; for pid in ${NGINX_PID:-} ${NIO_PID:-} ${MITM_PID:-} ${PROXIED_PID:-}; do kill $pid 2>/dev/null || true; done' EXIT
until [ -s "$WORK/tonearm.out" ]; do sleep 0.01; done
ready=$(date +%s.%N)
URL=$(head -1 "$WORK/tonearm.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
printf 'tonearm listening after %.2f s; RSS %s MiB before load\n' "$(echo "$ready - $start" | bc)" "$(( $(ps -o rss= -p $TONEARM_PID) / 1024 ))"
curl -sf "$URL/bench.local/items/0" >/dev/null
run_wrk "tonearm serve (replay)" "$URL"
echo "tonearm RSS after load: $(( $(ps -o rss= -p $TONEARM_PID) / 1024 )) MiB"

# The same replay with an older build (BASELINE=path), one after the other on the same cassette, so a
# change to the request path is compared within one run rather than across days of a shared machine;
# then the build under test once more, so neither build always runs first.
replay_with() {  # name binary: stops the running server, starts `binary` on the cassette, loads it
    kill $TONEARM_PID; wait $TONEARM_PID 2>/dev/null || true
    rm -f "$WORK/replay.out"
    "${SERVER_CPU[@]}" "$2" serve --cassette "$WORK/cassette.json" --mode replay --journal-limit 1000 >"$WORK/replay.out" 2>"$WORK/replay.err" &
    TONEARM_PID=$!
    local url
    url=$(listening_url "$WORK/replay.out")
    curl -sf "$url/bench.local/items/0" >/dev/null
    run_wrk "$1" "$url"
    echo "$1 RSS after load: $(( $(ps -o rss= -p $TONEARM_PID) / 1024 )) MiB"
}
if [ -n "${BASELINE:-}" ]; then
    replay_with "baseline (replay)" "$BASELINE"
    replay_with "tonearm serve (replay, again)" "$TONEARM"
fi

# nginx: the same bytes for every path.
NGINX_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# One worker when pinned: nginx's per-core figure.
cat >"$WORK/nginx.conf" <<EOF
worker_processes $([ "$PIN" = 1 ] && echo 1 || echo auto);
pid $WORK/nginx.pid;
error_log $WORK/nginx.error.log;
events { worker_connections 1024; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK;
    location / { default_type application/json; rewrite ^ /item.json break; }
  }
}
EOF
"${SERVER_CPU[@]}" nginx -c "$WORK/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
wait_for "http://127.0.0.1:$NGINX_PORT/bench.local/items/0"
run_wrk "nginx (static file)" "http://127.0.0.1:$NGINX_PORT"

# The NIO floor: SwiftNIO's NIOHTTP1Server example, from the checkout SwiftPM already has (copied, so
# nothing is built inside SwiftPM's checkout), answering "Hello World" to every path.
NIO_SOURCE=.build/checkouts/swift-nio
if [ "${NIO:-1}" = 1 ] && [ -d "$NIO_SOURCE" ]; then
    [ -d "$WORK/swift-nio" ] || cp -a "$NIO_SOURCE" "$WORK/swift-nio"
    NIO_BUILD=(swift build -c release --package-path "$WORK/swift-nio" --scratch-path "$WORK/swift-nio-build")
    "${NIO_BUILD[@]}" --product NIOHTTP1Server >"$WORK/nio-build.log" 2>&1 \
        || { echo "building NIOHTTP1Server failed: $WORK/nio-build.log" >&2; exit 1; }
    NIO_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    "${SERVER_CPU[@]}" "$("${NIO_BUILD[@]}" --show-bin-path)/NIOHTTP1Server" 127.0.0.1 "$NIO_PORT" >/dev/null &
    NIO_PID=$!
    wait_for "http://127.0.0.1:$NIO_PORT/"
    run_wrk "NIO floor (NIOHTTP1Server)" "http://127.0.0.1:$NIO_PORT"
    kill $NIO_PID; wait $NIO_PID 2>/dev/null || true; NIO_PID=
fi

# A stub rule: one `--rules` rule answering every /stub/items/N with the cassette's body size.
kill $TONEARM_PID; wait $TONEARM_PID 2>/dev/null || true
rm -f "$WORK/stub.out"
"${SERVER_CPU[@]}" "$TONEARM" serve --rules "$WORK/rules.json" --mode replay --journal-limit 1000 >"$WORK/stub.out" 2>"$WORK/stub.err" &
TONEARM_PID=$!
STUB_URL=$(listening_url "$WORK/stub.out")
curl -sf "$STUB_URL/stub/items/0" >/dev/null
run_wrk "tonearm serve (stub rule)" "$STUB_URL" "$WORK/stub-paths.lua"

echo
echo "side by side ($TRACKS tracks; $([ "$PIN" = 1 ] && echo "each server on core 0, wrk on core 1" || echo "not pinned"), wrk -t$THREADS -c$CONNECTIONS, load: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '| %-30s | %12s | %9s |\n' server requests/s "of nginx"
printf '| %-30s | %12s | %9s |\n' --- --- ---
NGINX_RATE=${RATE["nginx (static file)"]:-0}
for name in "nginx (static file)" "NIO floor (NIOHTTP1Server)" "tonearm serve (replay)" "tonearm serve (stub rule)"; do
    [ -n "${RATE[$name]:-}" ] || continue
    printf '| %-30s | %12s | %8s%% |\n' "$name" "${RATE[$name]}" \
        "$(python3 -c "import sys; print(f'{100 * float(sys.argv[1]) / float(sys.argv[2]):.1f}' if float(sys.argv[2]) else '?')" "${RATE[$name]}" "$NGINX_RATE")"
done
echo

# tonearm in front of that nginx: passthrough (proxy and journal), then missing over an empty cassette
# (each new path is fetched and recorded once, then replayed).
proxied() {  # name mode
    rm -f "$WORK/proxied.out" "$WORK/recorded.json"
    "$TONEARM" serve --cassette "$WORK/recorded.json" --mode "$2" --upstream "http://127.0.0.1:$NGINX_PORT" \
        --journal-limit 1000 >"$WORK/proxied.out" 2>"$WORK/proxied.err" &
    PROXIED_PID=$!
    local url
    url=$(listening_url "$WORK/proxied.out")
    curl -sf "$url/bench.local/items/0" >/dev/null
    run_wrk "$1" "$url"
    kill -INT $PROXIED_PID; wait $PROXIED_PID 2>/dev/null || true; PROXIED_PID=
}
[ "${ONLY_REPLAY:-0}" = 1 ] && exit 0
proxied "tonearm serve (passthrough)" passthrough
proxied "tonearm serve (missing)" missing
echo "recorded by missing: $(python3 -c "import json; print(len(json.load(open('$WORK/recorded.json'))['tracks']))" 2>/dev/null || echo '?') tracks"

if [ "${MITM:-1}" = 1 ]; then
    [ -x "$WORK/venv/bin/mitmdump" ] || { python3 -m venv "$WORK/venv" && "$WORK/venv/bin/pip" install -q mitmproxy; }
    MITM_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    # Record every path once through mitmproxy in reverse mode in front of nginx, then replay with nginx
    # stopped. `connection_strategy=lazy`: in reverse mode mitmproxy otherwise connects to the upstream
    # as each client connects, and with nginx stopped every replay connection is dropped at once.
    # Loading 10,000 flows for replay takes mitmproxy over a minute, hence the longer wait.
    rm -f "$WORK/flows"
    "$WORK/venv/bin/mitmdump" -q --listen-host 127.0.0.1 --mode "reverse:http://127.0.0.1:$NGINX_PORT" -p "$MITM_PORT" -w "$WORK/flows" &
    MITM_PID=$!
    wait_for "http://127.0.0.1:$MITM_PORT/bench.local/items/0"
    python3 - "$MITM_PORT" "$TRACKS" <<'PY'
import http.client, sys
port, count = int(sys.argv[1]), int(sys.argv[2])
connection = http.client.HTTPConnection("127.0.0.1", port)
for i in range(count):
    connection.request("GET", f"/bench.local/items/{i}")
    connection.getresponse().read()
PY
    kill -INT $MITM_PID; wait $MITM_PID || true
    kill $NGINX_PID; wait $NGINX_PID 2>/dev/null || true; NGINX_PID=
    start=$(date +%s.%N)
    "$WORK/venv/bin/mitmdump" -q --listen-host 127.0.0.1 --mode "reverse:http://127.0.0.1:$NGINX_PORT" -p "$MITM_PORT" \
        --set connection_strategy=lazy -S "$WORK/flows" --server-replay-reuse --server-replay-extra kill &
    MITM_PID=$!
    wait_for "http://127.0.0.1:$MITM_PORT/bench.local/items/0" 600
    printf 'mitmproxy answering after %.1f s\n' "$(echo "$(date +%s.%N) - $start" | bc)"
    run_wrk "mitmproxy (server replay)" "http://127.0.0.1:$MITM_PORT"
fi
