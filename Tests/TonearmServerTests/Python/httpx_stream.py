"""Reads a streamed answer with Python httpx (`client.stream`, `iter_lines`), as an app reading an LLM
API's Server-Sent Events does, and prints each line with when it arrived (seconds after the request was
sent), one JSON object a line.

    httpx_stream.py URL BODY
"""
import json
import sys
import time

import httpx

url, body = sys.argv[1], sys.argv[2]
with httpx.Client(timeout=30) as client:
    sent = time.monotonic()
    with client.stream("POST", url, content=body) as response:
        for line in response.iter_lines():
            if line:
                print(json.dumps({"line": line, "at": time.monotonic() - sent}), flush=True)
