"""A real HTTPS upstream for the interception tests: Python's own HTTP server and TLS, independent of
Tonearm's stack.

Usage: python3 https_upstream.py CERT.pem KEY.pem
Listens on 127.0.0.1 port 0, prints the port on one line, and answers every GET and POST with JSON naming
the method, the path and the body, plus a count of the requests it has served. Exits when standard input
closes, so the test that launched it stops it by closing the pipe.
"""
import http.server
import json
import ssl
import sys
import threading

served = {"count": 0}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8") if length else ""
        served["count"] += 1
        payload = json.dumps({"method": self.command, "path": self.path, "body": body, "served": served["count"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = answer
    do_POST = answer

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
