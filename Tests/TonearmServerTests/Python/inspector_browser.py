#!/usr/bin/env python3
"""The inspector page in a real browser (Chromium driven by Playwright) against a real Tonearm server.

Run by InspectorBrowserTests, which starts the server (a native cassette holding the tracks below) and
an upstream, then passes their addresses:

    python inspector_browser.py CONFIG.json

CONFIG: {"inspector": URL, "base": "http://127.0.0.1:PORT", "cassette": PATH, "upstream": "127.0.0.1:PORT",
         "chromium": "/usr/bin/chromium", "screenshots": FOLDER or null}

Each check prints `ok` or `FAIL`; the exit status is 1 when any failed. Recorded content holds markup
(`<script>`, `<img onerror>`, `javascript:`, `</textarea>`) that must show as text and run nothing: the
test asserts on the globals it would set. A page from another origin tries to read the inspector and act
through it, token in hand, and must fail. Screenshots for docs/server.md go to `screenshots` when given.
"""
import http.server
import json
import re
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from browser_checks import Checks

checks = Checks()
check = checks.check
# The test runs beside the whole suite on two cores: waits are generous, checks are exact.
expect.set_options(timeout=30_000)


def send(url, method="GET", body=None, headers=None):
    request = urllib.request.Request(url, method=method, data=body.encode() if body is not None else None, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def cassette_urls(path):
    return [track["request"]["url"] for track in json.loads(Path(path).read_text())["tracks"]]


def shows(locator, text):
    """Whether `locator` comes to show exactly `text` (the page follows the server's events)."""
    try:
        expect(locator).to_have_text(text)
        return True
    except AssertionError:
        return False


def rows_text(page, selector):
    return page.eval_on_selector_all(f"#exchange-list .vrow:not([hidden]) {selector}", "els => els.map(e => e.textContent)")


class EvilPage(http.server.BaseHTTPRequestHandler):
    """Another origin's page that knows the inspector's address (token and all) and tries to use it."""
    inspector = ""

    def do_GET(self):
        page = f"""<!doctype html><meta charset="utf-8"><title>evil</title><script>
window.results = {{}};
const inspector = {json.dumps(self.inspector)};
async function attempt(name, work) {{
  try {{ window.results[name] = await work(); }} catch (error) {{ window.results[name] = 'error: ' + error; }}
}}
(async () => {{
  await attempt('read', () => fetch(inspector + 'api/exchanges').then(r => r.text()));
  await attempt('readNoCors', () => fetch(inspector + 'api/exchanges', {{mode: 'no-cors'}}).then(r => 'opaque:' + r.type));
  await attempt('accept', () => fetch(inspector + 'api/misses/0/accept', {{method: 'POST', mode: 'no-cors',
      headers: {{'Content-Type': 'text/plain'}}, body: JSON.stringify({{candidate: 0}})}}).then(r => 'sent:' + r.type));
  await attempt('events', () => new Promise(resolve => {{
      const source = new EventSource(inspector + 'events');
      source.onmessage = () => resolve('message');
      source.addEventListener('state', () => resolve('state event read'));
      source.onerror = () => {{ source.close(); resolve('refused'); }};
  }}));
  const frame = document.createElement('iframe');
  frame.src = inspector;
  document.body.appendChild(frame);
  window.results.done = true;
}})();
</script>"""
        body = page.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    config = json.loads(Path(sys.argv[1]).read_text())
    inspector, base, cassette, upstream = config["inspector"], config["base"], config["cassette"], config["upstream"]
    shots = Path(config["screenshots"]) if config.get("screenshots") else None
    token = inspector.rstrip("/").split("/")[-1]

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=config["chromium"], args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1400, "height": 860}, permissions=["clipboard-read", "clipboard-write"])
        context.set_default_timeout(60_000)
        page = context.new_page()
        problems, dialogs = [], []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" or "Content Security Policy" in m.text else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

        # ---- the token ---------------------------------------------------------------------------
        missing = page.goto(base + "/__tonearm/inspector/")
        check("without the token the page is refused (401)", missing.status == 401, str(missing.status))
        wrong = page.goto(base + "/__tonearm/inspector/" + "0" * 32 + "/")
        check("with a wrong token the page is refused (403)", wrong.status == 403, str(wrong.status))
        check("the refusal shows no page", page.locator("#exchange-list").count() == 0)

        # ---- live exchanges --------------------------------------------------------------------
        opened = page.goto(inspector)
        check("the listening line's address opens the page", opened.status == 200)
        check("the page is served with a strict CSP and no referrer",
              "script-src 'self'" in opened.headers.get("content-security-policy", "") and opened.headers.get("referrer-policy") == "no-referrer")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        send(base + "/api.example.com/v1/users?page=1")
        page.wait_for_selector("#exchange-list .vrow")
        send(base + "/api.example.com/v1/orders", "POST", '{"item": 1}', {"Content-Type": "application/json"})
        send(base + "/api.example.com/logo.png")
        send(base + "/api.example.com/v1/users?page=2")
        send(base + f"/{upstream}/fresh")
        send(base + "/api.example.com/javascript:alert(document.domain)")
        page.wait_for_function("() => document.querySelectorAll('#exchange-list .vrow').length >= 6")
        urls = rows_text(page, ".c-url")
        check("each request appears live, newest first, without a reload",
              urls[:2] == ["https://api.example.com/javascript:alert(document.domain)", f"https://{upstream}/fresh"]
              or urls[:2] == ["https://api.example.com/javascript:alert(document.domain)", f"http://{upstream}/fresh"], str(urls[:3]))
        listed = [(e["method"], e["url"], e["source"]) for e in json.loads(send(inspector + "api/exchanges")[1])["entries"]]
        check("the header counts follow the server", shows(page.locator("#h-exchanges"), "6"), f"{page.text_content('#h-exchanges')}: {listed}")
        if shots:
            page.screenshot(path=str(shots / "inspector-exchanges.png"))

        # ---- filters -----------------------------------------------------------------------------
        page.select_option("#f-source", "miss")
        sources = rows_text(page, ".src")
        check("the source filter shows misses only", sources and all(s == "miss" for s in sources), str(sources))
        page.click("#f-clear")
        page.select_option("#f-method", "POST")
        check("the method filter shows POSTs only", rows_text(page, ".c-method") == ["POST"])
        page.click("#f-clear")
        page.fill("#f-status", "4xx")
        statuses = rows_text(page, ".c-status")
        check("the status filter shows 4xx only", statuses and all(s.startswith("4") for s in statuses), str(statuses))
        page.click("#f-clear")
        page.fill("#f-text", "logo")
        check("the text search filters URLs", rows_text(page, ".c-url") == ["https://api.example.com/logo.png"])
        page.click("#f-clear")

        # ---- details: markup in recordings stays text --------------------------------------------
        page.fill("#f-text", "page=1")
        page.locator("#exchange-list .vrow[data-index='0']").click()
        page.wait_for_selector("#detail .detail-scroll")
        detail = page.text_content("#detail")
        check("the detail shows the recorded body's <script> as text", "<script>window.pwned=1</script>" in detail)
        check("… and the recorded header's </textarea><img onerror> as text", "</textarea><img src=x onerror=window.pwned=2>" in detail)
        check("… and what answered it, with the track's recorded request", "track #0" in detail and "Recorded request" in detail)
        if shots:
            page.screenshot(path=str(shots / "inspector-detail.png"))
        page.click("#detail button:has-text('Copy as curl')")
        clip = page.evaluate("navigator.clipboard.readText()")
        check("Copy as curl puts a curl command on the clipboard", clip.startswith("curl ") and "page=1" in clip, clip[:80])
        page.keyboard.press("Escape")
        page.click("#f-clear")
        page.fill("#f-text", "logo")
        page.locator("#exchange-list .vrow[data-index='0']").click()
        page.wait_for_selector("#detail .detail-scroll")
        check("a binary body shows as a hex dump", "89 50 4e 47" in page.text_content("#detail"))
        page.keyboard.press("Escape")
        page.click("#f-clear")

        # ---- the miss inbox -------------------------------------------------------------------
        page.get_by_role("tab", name=re.compile("^Misses")).click()
        page.wait_for_selector("#misses-list .miss-card")
        check("the Misses tab counts the open misses", shows(page.locator("#miss-badge"), "3"), page.text_content("#miss-badge"))
        check("the differing fields are highlighted", page.locator("#misses-list mark").count() > 0)
        users_card = page.locator("li.miss-card", has_text="page=2")
        users_card.get_by_role("button", name=re.compile("^Accept nearest track")).click()
        expect(page.locator("#status")).to_contain_text("Accepted: written to")
        status, text = send(base + "/api.example.com/v1/users?page=2")
        check("Accept wrote the cassette file and the same request now hits, without a restart",
              status == 200 and "https://api.example.com/v1/users?page=2" in cassette_urls(cassette), f"{status} {text[:60]}")
        fresh_card = page.locator("li.miss-card", has_text="/fresh")
        fresh_card.get_by_role("button", name=re.compile("^Record from upstream")).click()
        expect(page.locator("#status")).to_contain_text("Recorded")
        status, text = send(base + f"/{upstream}/fresh")
        check("Record fetched the upstream's answer and keeps it", status == 200 and text == "upstream says hello"
              and any(url.endswith("/fresh") for url in cassette_urls(cassette)), f"{status} {text[:60]}")
        odd_card = page.locator("li.miss-card", has_text="javascript:")
        odd_card.get_by_role("button", name=re.compile("^Dismiss")).click()
        expect(page.locator("li.miss-card", has_text="javascript:")).to_have_count(0)
        check("Dismiss takes the miss out of the inbox", True)
        check("no link was made from a recorded javascript: URL", page.locator("a[href^='javascript:']").count() == 0)

        # An edited response, accepted from the page.
        send(base + "/api.example.com/v1/users?page=3")
        page.get_by_role("button", name="Refresh").first.click()
        card = page.locator("li.miss-card", has_text="page=3")
        expect(card).to_have_count(1)
        card.get_by_role("button", name="Accept edited response").click()
        editor = card.get_by_role("group", name=re.compile("^Edited response"))
        editor.get_by_label("Status").fill("203")
        editor.get_by_label("Body").fill('{"edited": true}')
        if shots:
            page.screenshot(path=str(shots / "inspector-misses.png"))
        editor.get_by_role("button", name="Accept this response").click()
        expect(page.locator("#status")).to_contain_text("Accepted")
        status, text = send(base + "/api.example.com/v1/users?page=3")
        check("an edited response accepted in the page answers from then on", status == 203 and text == '{"edited": true}', f"{status} {text}")

        # ---- the cassette ------------------------------------------------------------------------
        page.get_by_role("tab", name="Cassette").click()
        page.wait_for_selector("#cassette-body table")
        check("tracks never replayed are marked", page.locator("#cassette-body .tag-never").count() > 0)
        page.get_by_role("radio", name=re.compile("^missing")).check()
        expect(page.locator("#h-mode")).to_have_text("missing")
        check("the mode switch reloads the cassette recording what is missing", json.loads(send(inspector + "api/state")[1])["mode"] == "missing")
        page.get_by_role("radio", name="replay").check()
        expect(page.locator("#h-mode")).to_have_text("replay")
        if shots:
            page.screenshot(path=str(shots / "inspector-cassette.png"))

        # ---- explain -----------------------------------------------------------------------------
        page.get_by_role("tab", name="Explain").click()
        page.fill("#explain-text", "curl 'https://api.example.com/v1/users?page=1' -H 'Accept: application/json'")
        page.get_by_role("button", name="Explain").click()
        expect(page.locator("#explain-result")).to_contain_text("track #0")
        check("Explain says which track would answer a pasted curl command", True)
        page.fill("#explain-text", "curl 'https://api.example.com/v1/users?page=7'")
        page.get_by_role("button", name="Explain").click()
        page.wait_for_selector("#explain-result .candidate")
        check("… and for a miss, its nearest recordings", page.locator("#explain-result mark").count() > 0)
        if shots:
            page.screenshot(path=str(shots / "inspector-explain.png"))

        # ---- 10,000 exchanges --------------------------------------------------------------------
        page.get_by_role("tab", name="Exchanges").click()
        burst(base, 10_000)
        # Under such a burst the feed sends the newest and the page catches up at most every 2 s; opened
        # afterwards, the page loads the whole journal (what a developer does after a run).
        page.reload()
        page.wait_for_function("() => document.querySelector('#f-count').textContent.startsWith('10,000')", timeout=60000)
        timings = []
        for selector, value, event in [("#f-source", "track", "change"), ("#f-source", "", "change"), ("#f-text", "page=1", "input"),
                                       ("#f-text", "", "input"), ("#f-status", "4xx", "input"), ("#f-status", "", "input")]:
            timings.append(page.evaluate("""([selector, value, event]) => {
                const input = document.querySelector(selector);
                const t0 = performance.now();
                input.value = value;
                input.dispatchEvent(new Event(event));
                document.body.offsetHeight;
                return performance.now() - t0;
            }""", [selector, value, event]))
        check("filtering and rendering 10,000 exchanges takes ≤ 100 ms", max(timings) <= 100, f"worst {max(timings):.1f} ms")

        # ---- nothing ran -------------------------------------------------------------------------
        check("no recorded markup ran (window.pwned undefined)", page.evaluate("() => typeof window.pwned") == "undefined")
        check("no dialog opened", not dialogs, "; ".join(dialogs))
        check("no element came from recorded markup",
              page.evaluate("() => document.querySelectorAll('img').length === 0 && document.querySelectorAll('script').length === 1"))
        expected = re.compile(r"status of (409|400|401|403|404) ")
        unexpected = [p for p in problems if not expected.search(p)]
        check("no console error or CSP violation", not unexpected, "; ".join(unexpected[:3]))

        # ---- another origin ----------------------------------------------------------------------
        EvilPage.inspector = inspector
        evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), EvilPage)
        threading.Thread(target=evil.serve_forever, daemon=True).start()
        send(base + "/api.example.com/v1/users?page=4")
        before = cassette_urls(cassette)
        attacker = context.new_page()
        attacker.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        attacker.wait_for_function("() => window.results && window.results.done === true && 'events' in window.results", timeout=20000)
        found = attacker.evaluate("() => window.results")
        check("another origin cannot read the API (CORS, and the guard refuses its Origin)", str(found["read"]).startswith("error"), str(found["read"])[:80])
        check("… cannot read the event feed", found["events"] == "refused", found["events"])
        check("… and a no-cors POST changes nothing", cassette_urls(cassette) == before)
        frame = attacker.frame_locator("iframe")
        check("… and cannot frame the page", frame.locator("#exchange-list").count() == 0)
        evil.shutdown()

        dark = browser.new_context(viewport={"width": 1400, "height": 860}, color_scheme="dark").new_page()
        dark.goto(inspector)
        dark.wait_for_selector("#exchange-list .vrow")
        if shots:
            dark.screenshot(path=str(shots / "inspector-dark.png"))
        browser.close()

    checks.finish()


def burst(base, count):
    """`count` replays, sent over a few kept-alive connections."""
    import http.client
    from urllib.parse import urlparse

    address = urlparse(base)

    def worker(share):
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        for _ in range(share):
            connection.request("GET", "/api.example.com/v1/users?page=1")
            connection.getresponse().read()
        connection.close()

    threads = [threading.Thread(target=worker, args=(count // 4,)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
