#!/usr/bin/env python3
"""A HAR recorded by Playwright from Chromium while a page talks to a real WebSocket upstream, for
WebSocketBrowserTests: Tonearm must read the HAR a browser tool writes, not only one shaped after it.

    python websocket_har_recording.py WS_URL CHROMIUM OUT.har

The page (served to the browser by Playwright's routing, on the upstream's own origin) opens
`new WebSocket(WS_URL)`: greeted with "welcome" it sends "hi"; answered "echo: hi" it sends the bytes
0 1 2; answered with them it sends "bye", which websocket_upstream.py answers with a close (4000). The
context is then closed, which writes OUT.har (`record_har_path`, content embedded, so the socket's
frames are in `_webSocketMessages`). Prints the close code the page saw.
"""
import sys

from playwright.sync_api import sync_playwright

url, chromium, har = sys.argv[1], sys.argv[2], sys.argv[3]
page_url = url.replace("ws://", "http://").rsplit("/", 1)[0] + "/page"
PAGE = """<script>
const socket = new WebSocket(%r);
socket.binaryType = "arraybuffer";
socket.onmessage = (event) => {
  if (event.data === "welcome") socket.send("hi");
  else if (typeof event.data === "string") socket.send(new Uint8Array([0, 1, 2]));
  else socket.send("bye");
};
socket.onclose = (event) => { document.title = "closed " + event.code; };
</script>""" % url

with sync_playwright() as playwright:
    # The page comes from Playwright's routing: Chromium's local network access checks would otherwise
    # refuse its socket to 127.0.0.1.
    browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-features=LocalNetworkAccessChecks"])
    context = browser.new_context(record_har_path=har)
    page = context.new_page()
    page.route(page_url, lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    page.goto(page_url)
    page.wait_for_function("document.title.startsWith('closed')", timeout=20000)
    print(page.title(), flush=True)
    context.close()
    browser.close()
