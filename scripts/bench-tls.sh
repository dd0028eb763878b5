#!/usr/bin/env bash
# TLS numbers for `tonearm serve`, against nginx in the same run:
#   1. leaf signing time (`tonearm ca --time-leaves`: a fresh P-256 key and an ECDSA signature per leaf,
#      what a tunnel's first handshake to a host costs);
#   2. replay requests/s over TLS on keep-alive connections: `tonearm serve --mode replay --https-port 0`
#      over an N-track cassette of ~300-byte JSON bodies, against nginx serving the same bytes over TLS
#      with a self-signed P-256 certificate;
#   3. new connections per second (one request each, `Connection: close`): a full handshake per request.
# Each server runs pinned to CPU 0 (nginx with one worker), wrk to CPU 1.
#
#   scripts/bench-tls.sh                       # 1,000 tracks, 10 s per run, 32 connections
#   TONEARM=.build-bench/release/tonearm scripts/bench-tls.sh   # a binary already built
#
# Needs wrk, nginx, openssl and taskset. Only loopback addresses are used.
set -euo pipefail
cd "$(dirname "$0")/.."

TRACKS=${TRACKS:-1000}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-32}
LEAVES=${LEAVES:-1000}
WORK=${WORK:-/tmp/tonearm-bench-tls}
mkdir -p "$WORK"
echo "load: $(uptime)"

source scripts/bench-support/tonearm-binary.sh

# The cassette, the same-size static file for nginx, and wrk's request script.
python3 scripts/bench-support/bench_cassette.py "$WORK" "$TRACKS"

echo "leaf signing: $("$TONEARM" ca --time-leaves "$LEAVES")"

run_wrk() {  # name url [extra wrk arguments]
    local name=$1 url=$2 out rps p50 p99 errors
    shift 2
    out=$(taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/paths.lua" "$@" "$url")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    errors=$(echo "$out" | awk '/Socket errors|Non-2xx/ {$1=$1; printf "%s; ", $0}')
    printf '%-40s %10s req/s   p50 %-9s p99 %-9s %s\n' "$name" "$rps" "$p50" "$p99" "${errors:-no errors}"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

rm -f "$WORK/tonearm.out"
taskset -c 0 "$TONEARM" serve --cassette "$WORK/cassette.json" --mode replay --journal-limit 1000 \
    --https-port 0 --ca-dir "$WORK/ca" >"$WORK/tonearm.out" 2>"$WORK/tonearm.err" &
TONEARM_PID=$!
trap 'kill $TONEARM_PID 2>/dev/null || true; [ -n "${NGINX_PID:-}" ] && kill $NGINX_PID 2>/dev/null || true' EXIT
until [ -s "$WORK/tonearm.out" ]; do sleep 0.01; done
HTTPS_URL=$(head -1 "$WORK/tonearm.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["httpsUrl"])')
curl -sf --cacert "$WORK/ca/tonearm-ca.pem" "$HTTPS_URL/bench.local/items/0" >/dev/null

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=localhost -days 1 \
    -keyout "$WORK/nginx-key.pem" -out "$WORK/nginx-cert.pem" 2>/dev/null
NGINX_PORT=$(free_port)
cat >"$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx.error.log;
events { worker_connections 1024; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$NGINX_PORT ssl;
    ssl_certificate $WORK/nginx-cert.pem;
    ssl_certificate_key $WORK/nginx-key.pem;
    root $WORK;
    location / { default_type application/json; rewrite ^ /item.json break; }
  }
}
CONF
taskset -c 0 nginx -c "$WORK/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
for _ in $(seq 100); do curl -sfk -o /dev/null "https://127.0.0.1:$NGINX_PORT/x" && break; sleep 0.1; done

run_wrk "tonearm serve (replay, TLS keep-alive)" "$HTTPS_URL"
run_wrk "nginx (static file, TLS keep-alive)" "https://127.0.0.1:$NGINX_PORT"
run_wrk "tonearm serve (new TLS connection each)" "$HTTPS_URL" -H "Connection: close"
run_wrk "nginx (new TLS connection each)" "https://127.0.0.1:$NGINX_PORT" -H "Connection: close"
