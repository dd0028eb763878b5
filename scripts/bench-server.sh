#!/usr/bin/env bash
# Side-by-side load test on 127.0.0.1 with wrk (keep-alive): `tonearm serve --mode replay` over an
# N-track cassette of ~300-byte JSON responses, nginx serving a static file of the same size (the
# ceiling on this machine), `tonearm serve` in passthrough and missing modes in front of that nginx (the
# overhead of proxying and recording), and mitmproxy replaying the same traffic in reverse-proxy mode
# (`-S flows --server-replay-reuse`). Prints one line per server: requests/s, p50, p99.
#
#   scripts/bench-server.sh                  # 10,000 tracks, 10 s per run, 64 connections
#   TRACKS=100000 scripts/bench-server.sh    # the same with 100,000 tracks
#   MITM=0 scripts/bench-server.sh           # without mitmproxy (it pip-installs into $WORK/venv once)
#   CONFIG=debug SCRATCH=.build scripts/bench-server.sh   # check the script against a debug build
#   BASELINE=/path/to/older/tonearm scripts/bench-server.sh   # also replay with an older build, same run
#   ONLY_REPLAY=1 scripts/bench-server.sh    # replay runs and nginx only (no proxying, no mitmproxy)
#
# Needs wrk and nginx (apt-get install wrk nginx). Only loopback addresses are used.
set -euo pipefail
cd "$(dirname "$0")/.."

TRACKS=${TRACKS:-10000}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
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

run_wrk() {  # name url
    local out
    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/paths.lua" "$2")
    local rps p50 p99 non2xx
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
    printf '%-28s %12s req/s   p50 %-9s p99 %-9s non-2xx %s\n' "$1" "$rps" "$p50" "$p99" "${non2xx:-0}"
}

listening_url() {  # FILE: the url of the listening line `tonearm serve` wrote there, once it has
    until [ -s "$1" ]; do sleep 0.01; done
    head -1 "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])'
}

# tonearm: time to the listening line, then resident memory, then load.
rm -f "$WORK/tonearm.out"
start=$(date +%s.%N)
"$TONEARM" serve --cassette "$WORK/cassette.json" --mode replay --journal-limit 1000 >"$WORK/tonearm.out" 2>"$WORK/tonearm.err" &
TONEARM_PID=$!
trap 'kill $TONEARM_PID 2>/dev/null || true; [ -n "${NGINX_PID:-}" ] && kill $NGINX_PID 2>/dev/null || true; [ -n "${MITM_PID:-}" ] && kill $MITM_PID 2>/dev/null || true; [ -n "${PROXIED_PID:-}" ] && kill $PROXIED_PID 2>/dev/null || true' EXIT
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
    "$2" serve --cassette "$WORK/cassette.json" --mode replay --journal-limit 1000 >"$WORK/replay.out" 2>"$WORK/replay.err" &
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
cat >"$WORK/nginx.conf" <<EOF
worker_processes auto;
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
nginx -c "$WORK/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
wait_for "http://127.0.0.1:$NGINX_PORT/bench.local/items/0"
run_wrk "nginx (static file)" "http://127.0.0.1:$NGINX_PORT"

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
