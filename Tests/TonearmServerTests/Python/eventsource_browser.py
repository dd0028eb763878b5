#!/usr/bin/env python3
"""A replayed Server-Sent Events stream read by a real browser's EventSource (Chromium driven by
Playwright), against a real Tonearm server.

Run by EventSourceBrowserTests, which starts the server with a cassette of one paced stream:

    python eventsource_browser.py URL CHROMIUM OFFSETS_MS

The page opens `new EventSource(URL)` and notes when each message arrives (performance.now()). Prints
`ok`/`FAIL` lines and exits 1 when a check fails: every message arrives, in order, with its data, and
none sooner after the page opened the stream than its recorded time (a lower bound, which a loaded
machine cannot break).
"""
import json
import sys

from playwright.sync_api import sync_playwright

from browser_checks import Checks

url, chromium, offsets = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
checks = Checks()
check = checks.check


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
    page = browser.new_page()
    # A page of the server's own origin (its health answer), so the stream is same-origin.
    page.goto(url.split("/api.example.com")[0] + "/__tonearm/health")
    messages = page.evaluate(
        """([url, count]) => new Promise((resolve, reject) => {
            const received = [];
            received.opened = performance.now();
            const source = new EventSource(url);
            source.onmessage = (event) => {
                received.push({data: event.data, at: performance.now()});
                if (received.length === count) { source.close(); resolve({opened: received.opened, messages: received}); }
            };
            source.onerror = () => { if (received.length < count) { source.close(); reject(new Error("stream error after " + received.length)); } };
            setTimeout(() => reject(new Error("timed out after " + received.length)), 60000);
        })""",
        [url, len(offsets)],
    )
    browser.close()

opened, messages = messages["opened"], messages["messages"]
check("every message arrives, in order", [m["data"] for m in messages] == [f"token {i}" for i in range(len(offsets))],
      json.dumps([m["data"] for m in messages]))
for index, message in enumerate(messages):
    # Counted from when the page opened the stream, before the server sent the head its times count from
    # (not from the first message: a first message that arrives late would shorten every gap after it).
    # A millisecond's allowance for the two clocks' rounding.
    elapsed = message["at"] - opened
    check(f"message {index} no sooner than its recorded time", elapsed >= offsets[index] - 1, f"{elapsed:.1f} ms after opening, recorded {offsets[index]} ms")
checks.finish()
