"""A real Server-Sent Events upstream for the stream recording tests: Python's own HTTP server writing
chunked `text/event-stream` bodies, independent of Tonearm's stack.

Usage: python3 sse_upstream.py
Listens on 127.0.0.1 port 0 and prints the port on one line. Routes:
- GET /chat: `event: delta` with {"text": "Hel"} at once, then waits until GET /release, then
  {"text": "lo"}, 300 ms later `data: [DONE]`, and the end of the body. (The wait lets a test prove the
  first event reached it before the upstream sent the rest.)
- GET /forever: a `data: tick N` event every 100 ms until a write fails (its client left), then counts
  that in /closed.
- GET /release: lets a waiting /chat go on. GET /closed: how many /forever streams saw their client leave.
Exits when standard input closes.
"""
import http.server
import sys
import threading
import time

from event_stream_handler import EventStreamHandler

release = threading.Event()
closed = {"count": 0}
lock = threading.Lock()


class Handler(EventStreamHandler):

    def plain(self, text):
        data = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/chat":
            self.start_stream()
            self.chunk('event: delta\ndata: {"text":"Hel"}\n\n')
            release.wait(30)
            self.chunk('event: delta\ndata: {"text":"lo"}\n\n')
            time.sleep(0.3)
            self.chunk("data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        elif self.path == "/forever":
            self.start_stream()
            count = 0
            try:
                while count < 600:
                    self.chunk("data: tick %d\n\n" % count)
                    count += 1
                    time.sleep(0.1)
            except OSError:
                with lock:
                    closed["count"] += 1
                self.close_connection = True
        elif self.path == "/release":
            release.set()
            self.plain("released")
        elif self.path == "/closed":
            with lock:
                count = closed["count"]
            self.plain(str(count))
        else:
            self.send_error(404)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Thread(target=server.serve_forever, daemon=True).start()
print(server.server_address[1], flush=True)
sys.stdin.read()
