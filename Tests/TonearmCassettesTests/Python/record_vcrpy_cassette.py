"""Records a real vcrpy cassette at argv[1] with serializer argv[2] (yaml or json): requests against a
local http.server on 127.0.0.1.

With yaml the request carries header values as bytes, as botocore (boto3) sends them, so vcrpy writes
them as YAML !!binary (its json serializer cannot hold bytes, so there they are text); the response is
gzip-compressed JSON, as many APIs answer.
"""
import gzip
import http.server
import sys
import threading

import requests
import vcr

BODY = b'{"buckets":["logs","photos"]}'


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        payload = gzip.compress(BODY, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = "http://127.0.0.1:%d/buckets?list-type=2" % server.server_address[1]
serializer = sys.argv[2] if len(sys.argv) > 2 else "yaml"
with vcr.use_cassette(sys.argv[1], serializer=serializer):
    headers = {"User-Agent": b"Boto3/1.34.0", "X-Amz-Date": b"20240119T114109Z"}
    if serializer == "json":
        headers = {name: value.decode() for name, value in headers.items()}
    answer = requests.get(url, headers=headers)
    assert answer.content == BODY
server.shutdown()
print(url)
