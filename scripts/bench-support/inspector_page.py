"""Holds the inspector page open in headless Chromium (Playwright) until terminated: the real subscriber
for scripts/bench-inspector.sh's BROWSER=1 (the page's own catch-up fetches included).

Usage: PYTHON inspector_page.py INSPECTOR_URL CHROMIUM  ->  prints "live" once the page's feed is open.
"""
import signal
import sys
import threading

from playwright.sync_api import sync_playwright

stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=sys.argv[2], args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 1400, "height": 860})
    page.goto(sys.argv[1])
    page.wait_for_selector("#connection[data-state='live']")
    print("live", flush=True)
    while not stop.is_set():
        page.wait_for_timeout(200)
    print(page.text_content("#f-count"), flush=True)
    browser.close()
