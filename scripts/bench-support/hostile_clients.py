"""Hostile clients against a running `tonearm serve` on 127.0.0.1, printing its resident memory and how
long a fresh client waits for an answer. Used by scripts/hostile-clients.sh.

Usage: python3 hostile_clients.py PORT PID pipeline REQUESTS
       python3 hostile_clients.py PORT PID slowloris CONNECTIONS SECONDS
"""
import select
import socket
import sys
import time

HOST = "127.0.0.1"


def resident_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def fresh_client(port, path="/bench.local/ping", timeout=10.0):
    """Seconds until a new connection's request is answered, or None when it is not within `timeout`."""
    start = time.monotonic()
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as sock:
            sock.settimeout(max(0.1, timeout - (time.monotonic() - start)))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            answer = sock.recv(64)
            if not answer.startswith(b"HTTP/1.1 "):
                return None
    except OSError:
        return None
    return time.monotonic() - start


def describe(seconds):
    return "no answer" if seconds is None else f"{seconds * 1000:.0f} ms"


def pipeline(port, pid, requests):
    """One connection pipelining `requests` GETs for the 1 MiB track and never reading."""
    fresh_client(port, "/bench.local/big")
    baseline = resident_mb(pid)
    print(f"pipeline: {requests} x GET 1 MiB on one connection, never read")
    print(f"  resident after loading: {baseline:.0f} MB")
    sock = socket.create_connection((HOST, port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(b"GET /bench.local/big HTTP/1.1\r\nHost: x\r\n\r\n" * requests)
    peak = baseline
    start = time.monotonic()
    while time.monotonic() - start < 6:
        time.sleep(0.25)
        peak = max(peak, resident_mb(pid))
    print(f"  peak resident in 6 s: {peak:.0f} MB (+{peak - baseline:.0f} MB)")
    print(f"  fresh client meanwhile: {describe(fresh_client(port))}")
    sock.close()
    time.sleep(3)
    after = resident_mb(pid)
    print(f"  resident 3 s after the client closed: {after:.0f} MB (+{after - baseline:.0f} MB)")


def slowloris(port, pid, connections, seconds):
    """`connections` connections each sending one header byte every 5 s, for `seconds`."""
    baseline = resident_mb(pid)
    print(f"slowloris: {connections} connections, one header byte each every 5 s, for {seconds} s")
    socks = []
    refused = 0
    for _ in range(connections):
        try:
            sock = socket.create_connection((HOST, port), timeout=5)
            sock.setblocking(False)
            sock.send(b"GET /bench.local/ping HTTP/1.1\r\n")
            socks.append(sock)
        except OSError:
            refused += 1
    print(f"  opened {len(socks)} ({refused} refused), resident {resident_mb(pid):.0f} MB (from {baseline:.0f} MB)")
    start = time.monotonic()
    next_drip = start + 5
    checkpoints = [1, 5, 12, seconds]
    while checkpoints:
        now = time.monotonic()
        if now - start >= checkpoints[0]:
            at = checkpoints.pop(0)
            open_count = count_open(socks)
            print(f"  at {at:>3} s: {open_count} still open, fresh client answered in {describe(fresh_client(port))}, "
                  f"resident {resident_mb(pid):.0f} MB")
        if now >= next_drip:
            for sock in socks:
                try:
                    sock.send(b"X")
                except OSError:
                    pass
            next_drip += 5
        time.sleep(0.05)
    for sock in socks:
        sock.close()


def count_open(socks):
    """Connections the server has not closed (no EOF, no reset, nothing but possibly an answer waiting)."""
    open_count = 0
    for sock in socks:
        try:
            data = sock.recv(4096, socket.MSG_PEEK)
            if data and not data.startswith(b"HTTP/"):
                open_count += 1
        except BlockingIOError:
            open_count += 1
        except OSError:
            pass
    return open_count


if __name__ == "__main__":
    port, pid, scenario = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if scenario == "pipeline":
        pipeline(port, pid, int(sys.argv[4]))
    else:
        slowloris(port, pid, int(sys.argv[4]), int(sys.argv[5]))
