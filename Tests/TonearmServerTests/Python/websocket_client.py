"""A WebSocket client for the server's tests, on PyPI `websockets`: runs a script of steps against a URL
and prints one JSON line per thing it saw, so the Swift test can assert on what a real client got.

    websocket_client.py URL STEPS_JSON

STEPS_JSON is a list of steps:
  {"send": "text"} | {"sendBinary": "base64"} | {"recv": true} (prints {"recv": ..., "at": seconds})
  {"ping": true} (prints {"pong": seconds}) | {"close": code} | {"expectClose": true} (prints {"closed": code, "reason": ...})
  {"sendFragmented": ["part1", "part2"]} | {"sleep": seconds}
  {"signal": path} (creates the file, so a test knows the client got this far)
Ends with {"done": true}.
"""
import asyncio
import base64
import json
import sys
import time

import websockets


async def main(url, steps):
    start = time.monotonic()
    async with websockets.connect(url, compression=None, max_size=None, open_timeout=20) as socket:
        print(json.dumps({"opened": True, "subprotocol": socket.subprotocol}), flush=True)
        for step in steps:
            if "send" in step:
                await socket.send(step["send"])
            elif "sendBinary" in step:
                await socket.send(base64.b64decode(step["sendBinary"]))
            elif "sendFragmented" in step:
                await socket.send(iter(step["sendFragmented"]))
            elif "recv" in step:
                try:
                    message = await asyncio.wait_for(socket.recv(), timeout=step.get("timeout", 20))
                except websockets.ConnectionClosed as closed:
                    print(json.dumps({"closed": closed.rcvd.code if closed.rcvd else None,
                                      "reason": closed.rcvd.reason if closed.rcvd else None}), flush=True)
                    break
                at = time.monotonic() - start
                if isinstance(message, bytes):
                    print(json.dumps({"recvBinary": base64.b64encode(message).decode(), "at": at}), flush=True)
                else:
                    print(json.dumps({"recv": message, "at": at}), flush=True)
            elif "ping" in step:
                waiter = await socket.ping()
                latency = await asyncio.wait_for(waiter, timeout=20)
                print(json.dumps({"pong": latency}), flush=True)
            elif "close" in step:
                await socket.close(code=step["close"], reason=step.get("reason", ""))
                print(json.dumps({"closed": socket.close_code, "reason": socket.close_reason}), flush=True)
            elif "expectClose" in step:
                try:
                    await asyncio.wait_for(socket.wait_closed(), timeout=20)
                finally:
                    print(json.dumps({"closed": socket.close_code, "reason": socket.close_reason}), flush=True)
            elif "signal" in step:
                with open(step["signal"], "w") as signalled:
                    signalled.write("reached\n")
            elif "sleep" in step:
                await asyncio.sleep(step["sleep"])
    print(json.dumps({"done": True}), flush=True)


asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
