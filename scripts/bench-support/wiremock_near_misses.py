"""Time POST /__admin/near-misses/request against a server holding N exact mappings (one keep-alive
connection; 50 calls for a request a mapping answers, 50 for one none does).

Usage: python3 wiremock_near_misses.py http://127.0.0.1:PORT N   (a fresh `tonearm serve`)
"""
import http.client, json, sys, time, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1]); n = int(sys.argv[2])
c = http.client.HTTPConnection(url.hostname, url.port)
def call(method, path, body=None):
    c.request(method, path, body, {"Content-Type": "application/json"}); r = c.getresponse(); return r.status, r.read()
for i in range(n):
    call("POST", "/__admin/mappings", json.dumps({"request": {"method": "GET", "url": f"/items/{i}"}, "response": {"status": 200, "body": "x" * 300}}))
for what, body in (("hit", {"method": "GET", "url": "/items/17"}), ("miss", {"method": "GET", "url": "/items/x17"})):
    start = time.perf_counter()
    for _ in range(50): status, _ = call("POST", "/__admin/near-misses/request", json.dumps(body))
    print(f"{n} mappings, {what}: {(time.perf_counter() - start) / 50 * 1e3:.2f} ms per near-misses/request (status {status})")
