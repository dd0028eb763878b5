#!/usr/bin/env python3
"""Writes a large native cassette (REST-like traffic, seeded) for memory measurements of conversion.

Usage: large_cassette.py TRACKS OUTPUT.json [SEED] [--tiny]

Each track is a GET or POST against /v1/<resource>/<id> with a query, two headers, a JSON body for
POSTs and a JSON response of a few hundred bytes: the shape of docs/benchmarks.md's "Memory of HAR
export" numbers. With --tiny, each track is only a GET of a distinct URL answered by an empty 200
(about 90 bytes in the file): the case where per-track overhead dominates. Streaming output keeps this script's own memory flat.
"""
import json
import random
import sys


def main():
    tiny = "--tiny" in sys.argv
    arguments = [argument for argument in sys.argv[1:] if argument != "--tiny"]
    count, output = int(arguments[0]), arguments[1]
    rng = random.Random(int(arguments[2]) if len(arguments) > 2 else 42)
    resources = ["users", "orders", "products", "invoices", "carts", "sessions", "reviews", "shipments"]
    with open(output, "w") as out:
        out.write('{\n  "formatVersion": 1,\n  "name": "large",\n  "tracks": [')
        for index in range(count):
            if tiny:
                track = {"request": {"method": "GET", "url": f"https://t.example/{index}"}, "response": {"status": 200}}
                out.write(("," if index else "") + "\n    " + json.dumps(track, separators=(",", ":")))
                continue
            resource = rng.choice(resources)
            ident = rng.randrange(1_000_000)
            post = rng.random() < 0.3
            request = {
                "method": "POST" if post else "GET",
                "url": f"https://api.example.com/v1/{resource}/{ident}?page={rng.randrange(50)}&lang=en",
                "headers": [["Accept", "application/json"], ["X-Request-Id", f"{rng.getrandbits(64):016x}"]],
            }
            if post:
                request["headers"].append(["Content-Type", "application/json"])
                request["body"] = {"json": {"id": ident, "quantity": rng.randrange(10), "note": "x" * rng.randrange(40)}}
            items = [{"sku": f"SKU-{rng.randrange(10**6):06d}", "price": rng.randrange(10_000) / 100} for _ in range(rng.randrange(1, 5))]
            response = {
                "status": 200,
                "headers": [["Content-Type", "application/json"]],
                "body": {"json": {"id": ident, "resource": resource, "items": items, "updated": "2024-01-19T11:41:09Z"}},
            }
            track = {"recordedAt": "2024-01-19T11:41:09.123Z", "request": request, "response": response}
            out.write(("," if index else "") + "\n    " + json.dumps(track, separators=(",", ":")))
        out.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
