"""N concurrent Server-Sent Events replays against one `tonearm serve`, measuring each event's pacing
error: how far its arrival after the first event's differs from its recorded time after the first
event's (the first event is the reference, so a client reading the head late does not count).

Usage: python3 sse_clients.py PORT COUNT CASSETTE.json
Prints one JSON line: events measured, p50/p99/max error in ms, and the slowest client's total time.
"""
import asyncio
import json
import sys
import time

port, count, cassette = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(cassette) as f:
    track = json.load(f)["tracks"][0]
offsets = [event["at"] / 1000 for event in track["response"]["events"]]
path = "/" + track["request"]["url"].split("://", 1)[1]


async def one():
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    first_at = None
    errors = []
    buffer = b""
    seen = 0
    while seen < len(offsets):
        data = await reader.read(65536)
        if not data:
            break
        now = time.monotonic()
        buffer += data
        complete = buffer.count(b"\n\n")
        while seen < complete and seen < len(offsets):
            if first_at is None:
                first_at = now
            else:
                errors.append(abs((now - first_at) - (offsets[seen] - offsets[0])))
            seen += 1
    writer.close()
    return errors, head.startswith(b"HTTP/1.1 200")


async def main():
    started = time.monotonic()
    results = await asyncio.gather(*(one() for _ in range(count)))
    took = time.monotonic() - started
    errors = sorted(e * 1000 for r, ok in results for e in r)
    ok = sum(1 for _, good in results if good)

    def pct(p):
        return round(errors[min(len(errors) - 1, int(p * len(errors)))], 2) if errors else None

    print(json.dumps({
        "clients": count, "answered200": ok, "eventsMeasured": len(errors), "expected": count * (len(offsets) - 1),
        "errorP50ms": pct(0.50), "errorP99ms": pct(0.99), "errorMaxMs": round(errors[-1], 2) if errors else None,
        "wallSeconds": round(took, 2),
    }))


asyncio.run(main())
