#!/usr/bin/env python3
"""A WebSocket in the inspector page, in a real browser (Chromium driven by Playwright), against a real
Tonearm server replaying a recorded conversation.

Run by InspectorBrowserTests, which starts the server with a cassette of one conversation (a greeting
holding markup, a question, two answers: text and binary) and writes CONFIG.json:

    python inspector_streams_browser.py CONFIG.json

With the page open, a PyPI `websockets` client talks to the server and closes. The page's list must
note the socket's messages and close once it ends, without a reload (the feed's `completed` event),
and its detail must list each message with its sender and content, the markup shown as text and run
never. Prints `ok`/`FAIL` lines; exits 1 when a check fails.
"""
import json
import sys
from pathlib import Path

from playwright.sync_api import expect, sync_playwright
from websockets.sync.client import connect

from browser_checks import Checks

checks = Checks()
check = checks.check
expect.set_options(timeout=30_000)

config = json.loads(Path(sys.argv[1]).read_text())

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=config["chromium"], args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 1400, "height": 860})
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(config["inspector"])
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")

    row = page.locator("#exchange-list .vrow", has_text="/socket")
    with connect(config["socket"], compression=None, open_timeout=30) as socket:
        greeting = socket.recv(timeout=30)
        # Listed by its handshake while it is open, with nothing to note yet: the note below can then only
        # come from the feed's `completed` event updating a row already drawn.
        expect(row).to_have_count(1)
        check("an open socket is listed by its handshake, with no note yet", "messages" not in row.locator(".c-detail").text_content())
        socket.send(json.dumps({"q": "hi", "op": "ask"}))
        answers = [socket.recv(timeout=30), socket.recv(timeout=30)]
        socket.close(code=1000)
    check("the client had the conversation", answers == ["answer", bytes([1, 2, 3])], repr(answers))

    # Noted once it ended, with no reload.
    expect(row.locator(".c-detail")).to_contain_text("4 messages, closed 1000")
    check("the list notes the socket's messages and close once it ends, live", True)

    row.click()
    conversation = page.locator("#detail details.sec", has_text="WebSocket conversation")
    expect(conversation).to_have_count(1)
    rows = conversation.locator("table.stream tbody tr")
    expect(rows).to_have_count(4)
    senders = rows.locator("td.from").all_text_contents()
    check("each message with its sender", senders == ["← server", "client →", "← server", "← server"], repr(senders))
    contents = rows.locator("td pre").all_text_contents()
    check("the greeting's markup is shown as text", contents[0] == greeting, f"{contents[0]!r} vs {greeting!r}")
    check("the client's message as it sent it", contents[1] == '{"q": "hi", "op": "ask"}', repr(contents[1]))
    check("a binary message as a hex dump", "01 02 03" in contents[3], repr(contents[3]))
    check("its close", "Closed by the client" in conversation.text_content() and "1000" in conversation.text_content())
    check("the recorded markup ran nothing", page.evaluate("() => window.pwned === undefined"))
    check("no script errors", not problems, repr(problems))
    browser.close()

checks.finish()
