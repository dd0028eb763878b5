"""A stand-in for an LLM provider's streamed chat completions (the shape OpenAI's API streams), for the
worked example in docs/server.md ("Worked example: a streamed chat completion"): Python's own HTTP
server, independent of Tonearm's stack.

Usage: python3 llm_upstream.py
Listens on 127.0.0.1 port 0 and prints the port. POST /v1/chat/completions with a JSON body whose
"stream" is true answers `text/event-stream`, chunked: three `chat.completion.chunk` events 100 ms apart
(each with a fresh id and time, as providers send), then `data: [DONE]`. Exits when standard input closes.
"""
import http.server
import json
import sys
import threading
import time
import uuid

from event_stream_handler import EventStreamHandler


class Handler(EventStreamHandler):
    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.start_stream()
        completion = "chatcmpl-" + uuid.uuid4().hex
        for token in ["Hel", "lo", "!"]:
            event = {"id": completion, "object": "chat.completion.chunk", "created": int(time.time()),
                     "model": request["model"], "choices": [{"index": 0, "delta": {"content": token}}]}
            self.chunk("data: %s\n\n" % json.dumps(event, separators=(",", ":")))
            time.sleep(0.1)
        self.chunk("data: [DONE]\n\n")
        self.chunk("")


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
