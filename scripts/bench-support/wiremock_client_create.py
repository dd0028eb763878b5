"""Creates COUNT mappings (the bench's ~300-byte bodies) with the PyPI `wiremock` client's
Mappings.create_mapping from 4 threads, as a WireMock user's test suite would; prints wall and client CPU.
The client posts with `requests.post`, without a session: one new TCP connection per mapping.

Usage: PYTHON_WITH_WIREMOCK wiremock_client_create.py http://127.0.0.1:PORT COUNT
"""
import os, sys, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_cassette import body
from wiremock.constants import Config
from wiremock.resources.mappings import Mapping, MappingRequest, MappingResponse, HttpMethods
from wiremock.resources.mappings.resource import Mappings
Config.base_url = sys.argv[1].rstrip("/") + "/__admin"
count = int(sys.argv[2])
mappings = [Mapping(request=MappingRequest(method=HttpMethods.GET, url=f"/items/{i}"),
                    response=MappingResponse(status=200, headers={"Content-Type": "application/json"}, body=body(i)))
            for i in range(count)]
def create(chunk):
    for m in chunk: Mappings.create_mapping(m)
threads = [threading.Thread(target=create, args=(mappings[i::4],)) for i in range(4)]
start, cpu = time.perf_counter(), time.process_time()
for t in threads: t.start()
for t in threads: t.join()
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
print(f"{count} Mappings.create_mapping calls in {elapsed:.2f} s ({elapsed / count * 1e6:.0f} us each, 4 threads); client CPU {cpu:.2f} s")
