"""The chunked `text/event-stream` writing shared by the test upstreams that stream (sse_upstream.py,
llm_upstream.py): Python's own HTTP server, independent of Tonearm's stack. Imported from the scripts'
own folder, which Python puts on the module path of a script it runs.
"""
import http.server


class EventStreamHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def start_stream(self):
        """A 200 `text/event-stream` head, its body chunked."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def chunk(self, text):
        """One chunk, flushed at once; "" is the last chunk."""
        data = text.encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def log_message(self, *arguments):
        pass
