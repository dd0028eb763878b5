#!/usr/bin/env python3
"""A replayed WebSocket conversation as a real browser's `WebSocket` meets it (Chromium driven by
Playwright), against a real Tonearm server.

Run by WebSocketBrowserTests, which starts the server with a cassette of one conversation (the server
greets, the client asks {"q":"hi"}, the server answers 50 ms and 350 ms after it, then closes with 4000):

    python websocket_browser.py WS_URL CHROMIUM

The page opens `new WebSocket(WS_URL)`, sends the question with its members in another order once greeted,
and notes each message (text, or the bytes of a binary one) and the close. Prints `ok`/`FAIL` lines and
exits 1 when a check fails.
"""
import sys

from playwright.sync_api import sync_playwright

from browser_checks import Checks

url, chromium = sys.argv[1], sys.argv[2]
checks = Checks()
check = checks.check


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
    page = browser.new_page()
    page.goto(url.replace("ws://", "http://").split("/chat.example.com")[0] + "/__tonearm/health")
    seen = page.evaluate(
        """(url) => new Promise((resolve) => {
            const seen = {messages: [], close: null};
            const socket = new WebSocket(url);
            socket.binaryType = "arraybuffer";
            socket.onmessage = (event) => {
                const data = typeof event.data === "string" ? event.data : Array.from(new Uint8Array(event.data));
                seen.messages.push({data, at: performance.now()});
                if (data === "welcome") { socket.send(JSON.stringify({q: "hi", op: "ask"})); seen.sentAt = performance.now(); }
            };
            socket.onclose = (event) => { seen.close = {code: event.code, reason: event.reason}; resolve(seen); };
            setTimeout(() => resolve(seen), 20000);
        })""",
        url,
    )
    browser.close()

data = [message["data"] for message in seen["messages"]]
check("the greeting, then both answers, in order", data == ["welcome", "answer", [1, 2, 3]], repr(data))
if len(seen["messages"]) == 3:
    # Each answer is due its recorded distance after the question it answers (50 ms, 350 ms): never sooner.
    first, second = (seen["messages"][i]["at"] - seen["sentAt"] for i in (1, 2))
    check("the answers no sooner after the question than recorded (50 ms, 350 ms)", first >= 49 and second >= 349, f"{first:.0f} ms, {second:.0f} ms")
check("the server's recorded close, 4000", seen["close"] == {"code": 4000, "reason": "done"}, repr(seen["close"]))
checks.finish()
