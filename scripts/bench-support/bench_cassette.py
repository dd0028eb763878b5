"""The benchmark traffic shared by the server scripts: N tracks of ~300-byte JSON bodies.

Usage: python3 bench_cassette.py WORK COUNT  ->  WORK/cassette.json (native), WORK/item.json (one body,
for nginx), WORK/paths.lua (wrk's request script: a random track per request, seeded), WORK/rules.json
(one rule answering GET /stub/items/N with item 0's body) and WORK/stub-paths.lua (wrk's script for it).
Other scripts import `body` to build the same responses in another shape.
"""
import json
import sys


def body(i):
    text = json.dumps({"id": i, "name": f"item {i}", "description": "x" * 200, "price": i % 997, "tags": ["a", "b"]},
                      separators=(",", ":"))
    return text[:300].ljust(300) if len(text) >= 300 else text + " " * (300 - len(text))


def write(work, count):
    tracks = [{"request": {"method": "GET", "url": f"http://bench.local/items/{i}"},
               "response": {"status": 200, "headers": [["Content-Type", "application/json"]], "body": {"text": body(i)}}}
              for i in range(count)]
    with open(f"{work}/cassette.json", "w") as file:
        json.dump({"formatVersion": 1, "tracks": tracks}, file)
    with open(f"{work}/item.json", "w") as file:
        file.write(body(0))
    with open(f"{work}/rules.json", "w") as file:
        json.dump({"rules": [{"name": "bench item", "method": "GET", "path": "^/stub/items/[0-9]+$",
                              "headers": {"Content-Type": "application/json"}, "body": body(0)}]}, file)
    for name, prefix in (("paths.lua", "/bench.local/items/"), ("stub-paths.lua", "/stub/items/")):
        with open(f"{work}/{name}", "w") as file:
            file.write(f"""
math.randomseed(42)
request = function()
  return wrk.format("GET", "{prefix}" .. math.random(0, {count - 1}))
end
""")


if __name__ == "__main__":
    write(sys.argv[1], int(sys.argv[2]))
