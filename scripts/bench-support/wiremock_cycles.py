"""Creates and deletes N mappings through the WireMock admin API (4 threads, one keep-alive connection
each; exact mappings and rules alternately), printing the server's resident memory every N/5 cycles, and
times GETs answered by a mapping and a rule that stayed, before and after.

Usage: python3 wiremock_cycles.py http://127.0.0.1:PORT SERVER_PID N [same]
       (same: every cycle creates the same request; otherwise a new URL each time)
"""
import http.client, json, sys, threading, time, urllib.parse
url, pid, n = urllib.parse.urlsplit(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
same = len(sys.argv) > 4 and sys.argv[4] == "same"
body = "x" * 300
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) // 1024
def call(c, method, path, data=None):
    c.request(method, path, data, {"Content-Type": "application/json"}); r = c.getresponse(); return r.status, r.read()
main = http.client.HTTPConnection(url.hostname, url.port)
call(main, "POST", "/__admin/mappings", json.dumps({"request": {"method": "GET", "url": "/stays"}, "response": {"status": 200, "body": "stays"}}))
call(main, "POST", "/__admin/mappings", json.dumps({"request": {"method": "GET", "urlPathPattern": "/rule/[0-9]+"}, "response": {"status": 200, "body": "rule"}}))
def timed_get(path, count=200):
    start = time.perf_counter()
    for _ in range(count): status, _ = call(main, "GET", path)
    return (time.perf_counter() - start) / count * 1e6, status
print(f"start: RSS {rss()} MiB; GET /stays {timed_get('/stays')[0]:.0f} us; GET /rule/1 {timed_get('/rule/1')[0]:.0f} us")
def cycle(indices):
    c = http.client.HTTPConnection(url.hostname, url.port)
    for i in indices:
        kind = i % 2  # exact mappings and rules alike
        request = ({"method": "GET", "url": "/same" if same else f"/gone/{i}"} if kind == 0
                   else {"method": "GET", "urlPathPattern": "/same/[a-z]+" if same else f"/gone/{i}/[a-z]+"})
        status, answer = call(c, "POST", "/__admin/mappings", json.dumps({"request": request, "response": {"status": 200, "body": body}}))
        assert status == 201, answer
        status, _ = call(c, "DELETE", f"/__admin/mappings/{json.loads(answer)['id']}")
        assert status == 200
start = time.perf_counter()
for step in range(5):
    part = range(step * n // 5, (step + 1) * n // 5)
    threads = [threading.Thread(target=cycle, args=(part[t::4],)) for t in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
    print(f"after {(step + 1) * n // 5} create/delete cycles ({time.perf_counter() - start:.1f} s): RSS {rss()} MiB")
main = http.client.HTTPConnection(url.hostname, url.port)  # the first one idled out meanwhile
total = json.loads(call(main, "GET", "/__admin/mappings?limit=1")[1])["meta"]["total"]
print(f"end: {total} mappings held; GET /stays {timed_get('/stays')[0]:.0f} us; GET /rule/1 {timed_get('/rule/1')[0]:.0f} us; GET /same {timed_get('/same')[0]:.0f} us (a miss)")
