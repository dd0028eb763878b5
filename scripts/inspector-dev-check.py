#!/usr/bin/env python3
"""DEV-ONLY browser check of the inspector page against scripts/inspector-dev-server.py.

Starts the fixture server on a random port, drives the page in Chromium with Playwright and checks:
live rows, filters, the detail pane (mouse and keyboard), markup in the data rendered as text,
the miss actions (found by role and a name starting with the verb), the cassette and explain tabs,
and the time to filter and re-render 10,000 entries (budget 100 ms). Screenshots go to /tmp.

Usage: PYTHON scripts/inspector-dev-check.py [--chromium /usr/bin/chromium] [--shots /tmp]
where PYTHON has Playwright installed (it uses the given Chromium, it does not download one).
"""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))
    print(f"{'ok  ' if ok else 'FAIL'} {name}{f' ({detail})' if detail else ''}", flush=True)


def rows_text(page, selector):
    return page.eval_on_selector_all(f"#exchange-list .vrow:not([hidden]) {selector}", "els => els.map(e => e.textContent)")


def set_filter(page, selector, value):
    if selector in ("#f-source", "#f-method"):
        page.select_option(selector, value)
    else:
        page.fill(selector, value)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--shots", default="/tmp")
    args = parser.parse_args()

    server = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "inspector-dev-server.py"), "--port", "0", "--rate", "4"],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        print(f"dev server: {url}")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            run(browser, url, Path(args.shots))
            browser.close()
    finally:
        server.terminate()
        server.wait(5)

    failed = [r for r in results if not r[1]]
    print(f"\n{len(results) - len(failed)} of {len(results)} checks passed")
    return 1 if failed else 0


def run(browser, url, shots):
    context = browser.new_context(viewport={"width": 1400, "height": 860}, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    problems, dialogs = [], []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" or "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(url)

    # ---- live rows -------------------------------------------------------------------------------
    page.wait_for_selector("#exchange-list .vrow")
    first_key = int(page.get_attribute("#exchange-list .vrow[data-index='0']", "data-key"))
    # (functions, not expression strings: the page's CSP forbids eval, which string expressions use)
    page.wait_for_function("k => Number(document.querySelector(\"#exchange-list .vrow[data-index='0']\").dataset.key) > k", arg=first_key, timeout=5000)
    newest = int(page.get_attribute("#exchange-list .vrow[data-index='0']", "data-key"))
    check("rows appear live from the event stream (no reload)", newest > first_key, f"top row #{first_key} → #{newest}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    check("connection indicator says live", page.text_content("#conn-text") == "live")
    page.screenshot(path=str(shots / "inspector-exchanges.png"))

    # ---- filters ---------------------------------------------------------------------------------
    for selector, value, cell, test in [
        ("#f-source", "miss", ".src", lambda t: t == "miss"),
        ("#f-method", "POST", ".c-method", lambda t: t == "POST"),
        ("#f-status", "2xx", ".c-status", lambda t: t.startswith("2")),
        ("#f-status", "404 5xx", ".c-status", lambda t: t == "404" or t.startswith("5")),
        ("#f-text", "ORDERS", ".c-url", lambda t: "orders" in t.lower()),
    ]:
        page.click("#f-clear")
        set_filter(page, selector, value)
        texts = rows_text(page, cell)
        check(f"filter {selector[3:]}={value!r} shows only matching rows", texts and all(test(t) for t in texts), f"{len(texts)} rows rendered")
        if selector == "#f-status" and value == "2xx":
            page.fill("#f-status", "abc")
            check("an unreadable status filter is marked invalid", page.get_attribute("#f-status", "aria-invalid") == "true")
    page.click("#f-clear")

    # ---- detail: mouse and keyboard --------------------------------------------------------------
    page.locator("#exchange-list .vrow[data-index='2']").click()
    page.wait_for_selector("#detail .detail-scroll")
    check("clicking a row opens the detail", page.is_visible("#detail") and "Request headers" in page.text_content("#detail"))
    page.keyboard.press("Escape")
    check("Escape closes the detail", page.is_hidden("#detail"))
    page.focus("#exchange-list")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    selected = page.get_attribute("#exchange-list .vrow[aria-selected='true']", "data-key")
    page.keyboard.press("Enter")
    page.wait_for_selector("#detail .detail-scroll")
    check("arrow keys move the selection and Enter opens it", f"#{selected}" in page.text_content("#detail"), f"exchange #{selected}")
    page.keyboard.press("ArrowDown")
    after = page.get_attribute("#exchange-list .vrow[aria-selected='true']", "data-key")
    page.wait_for_function("id => document.querySelector('#detail').textContent.includes('#' + id)", arg=after)
    check("the open detail follows the keyboard selection", True, f"#{selected} → #{after}")
    page.click("#detail button:has-text('Copy as curl')")
    clip = page.evaluate("navigator.clipboard.readText()")
    check("Copy as curl puts the curl command on the clipboard", clip.startswith("curl "), clip[:60])

    # ---- data containing markup stays text -------------------------------------------------------
    page.click("#detail .close")
    page.fill("#f-text", "<script>")
    page.wait_for_selector("#exchange-list .vrow:not([hidden])")
    urls = rows_text(page, ".c-url")
    check("a URL containing <script> is listed as text", urls and "<script>window.pwned=1</script>" in urls[0], urls[0] if urls else "")
    page.locator("#exchange-list .vrow[data-index='0']").click()
    page.wait_for_selector("#detail .detail-scroll")
    detail_text = page.text_content("#detail")
    check("the detail shows the markup as text", "<script>window.pwned=1</script>" in detail_text)
    page.screenshot(path=str(shots / "inspector-detail-xss.png"))
    page.click("#f-clear")

    # ---- misses ----------------------------------------------------------------------------------
    page.get_by_role("tab", name=re.compile("^Misses")).click()
    page.wait_for_selector("#misses-list .miss-card")
    check("the Misses tab has a count badge", page.text_content("#miss-badge").strip().isdigit())
    for verb in ("Accept", "Accept nearest track", "Accept edited response", "Record from upstream", "Dismiss", "Copy as curl"):
        count = page.get_by_role("button", name=re.compile(f"^{verb}")).count()
        check(f"buttons named '{verb}…' found by role", count > 0, f"{count}")
    check("differences are highlighted with <mark>", page.locator("#misses-list mark").count() > 0)
    misses = json.loads(page.evaluate("fetch('./api/misses').then(r => r.text())"))
    no_record = [m for m in misses if not m["miss"]["actions"]["record"]]
    if no_record:
        button = page.locator(f"li.miss-card[aria-label^='Miss #{no_record[0]['id']}:']").get_by_role("button", name="Record from upstream")
        check("Record is disabled with recordWhyNot as its title",
              button.is_disabled() and button.get_attribute("title") == no_record[0]["miss"]["actions"]["recordWhyNot"])
    with_candidates = [m for m in misses if m["miss"]["nearest"]]
    writable = next(m for m in with_candidates if m["id"] % 3)
    readonly = next(m for m in with_candidates if m["id"] % 3 == 0)

    card = page.locator(f"li.miss-card[aria-label^='Miss #{writable['id']}:']")
    card.get_by_role("button", name=re.compile("^Accept nearest track")).click()
    expect(page.locator("#status")).to_contain_text("Accepted: written to")
    check("accepting the nearest track reports where it was written", "as track #" in page.text_content("#status"), page.text_content("#status"))
    expect(card).to_have_count(0)
    check("the accepted miss leaves the inbox", True)

    card = page.locator(f"li.miss-card[aria-label^='Miss #{readonly['id']}:']")
    card.get_by_role("button", name="Accept edited response").click()
    editor = card.get_by_role("group", name=re.compile("^Edited response"))
    check("the editor is prefilled from the nearest candidate",
          editor.get_by_label("Status").input_value() == "200" and "Content-Type: application/json" in editor.get_by_label(re.compile("^Headers")).input_value())
    editor.get_by_label("Status").fill("201")
    editor.get_by_label("Body").fill('{"edited": true}')
    editor.get_by_role("button", name="Accept this response").click()
    native = card.locator("textarea.native")
    expect(native).to_be_visible()
    check("a 409 shows the error and the native JSON read-only", native.get_attribute("readonly") is not None and "edited" in native.input_value())
    check("… with a copy button", card.get_by_role("button", name="Copy native JSON").count() == 1)
    page.screenshot(path=str(shots / "inspector-misses.png"), full_page=False)

    before = page.locator("#misses-list .miss-card").count()
    page.locator("#misses-list .miss-card").first.get_by_role("button", name="Dismiss").click()
    expect(page.locator("#status")).to_contain_text("Dismissed miss")
    page.wait_for_function("n => document.querySelectorAll('#misses-list .miss-card').length < n + 3", arg=before)
    check("Dismiss removes a miss", True, page.text_content("#status"))

    # ---- cassette --------------------------------------------------------------------------------
    page.get_by_role("tab", name="Cassette").click()
    page.wait_for_selector("#cassette-body table")
    check("tracks never replayed are marked", page.locator("#cassette-body .tag-never").count() > 0)
    check("consumed tracks are marked used up", page.locator("#cassette-body .tag-used").count() > 0)
    page.get_by_role("button", name="Reset scenarios").click()
    expect(page.locator("#status")).to_contain_text("Reset scenarios")
    page.get_by_role("button", name="Rewind strategies").click()
    expect(page.locator("#status")).to_contain_text("Rewound")
    page.get_by_role("radio", name=re.compile("^missing")).check()
    expect(page.locator("#h-mode")).to_have_text("missing")
    check("the mode switch changes the server's mode", True)
    page.get_by_role("radio", name="replay").check()
    expect(page.locator("#h-mode")).to_have_text("replay")
    page.screenshot(path=str(shots / "inspector-cassette.png"))

    # ---- explain ---------------------------------------------------------------------------------
    page.get_by_role("tab", name="Explain").click()
    page.fill("#explain-text", "curl -X POST 'https://api.example.com/v1/orders?page=2' -H 'Content-Type: application/json' -d '{\"a\":1}'")
    page.get_by_role("button", name="Explain").click()
    page.wait_for_selector("#explain-result .miss")
    check("explaining a miss shows its candidates like the misses tab", page.locator("#explain-result .candidate").count() > 0)
    page.screenshot(path=str(shots / "inspector-explain.png"))
    page.fill("#explain-text", "GET /v1/users\nHost api.example.com")
    page.get_by_role("button", name="Explain").click()
    page.wait_for_selector("#explain-result .error")
    check("an unreadable request shows line and column", page.text_content("#explain-result .error").startswith("Line 1, column"),
          page.text_content("#explain-result .error"))

    # ---- 10,000 entries --------------------------------------------------------------------------
    page.get_by_role("tab", name="Exchanges").click()
    page.evaluate("fetch('./api/dev/burst', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({count: 12000})})")
    page.wait_for_function("() => document.querySelector('#f-count').textContent === '10,000 exchanges'", timeout=20000)
    check("at most 10,000 entries are kept (after skipped → re-fetch)", True, page.text_content("#f-count"))
    timings = []
    for selector, value in [("#f-source", "track"), ("#f-source", "miss"), ("#f-source", ""), ("#f-text", "users"),
                            ("#f-text", ""), ("#f-status", "4xx"), ("#f-status", ""), ("#f-method", "POST"), ("#f-method", "")]:
        event = "change" if selector in ("#f-source", "#f-method") else "input"
        t = page.evaluate("""([selector, value, event]) => new Promise((resolve) => {
            const input = document.querySelector(selector);
            const t0 = performance.now();
            input.value = value;
            input.dispatchEvent(new Event(event));
            document.body.offsetHeight;                  // force style + layout of the new rows
            const sync = performance.now() - t0;
            // ... and until the next frame has been produced.
            requestAnimationFrame(() => setTimeout(() => resolve({sync, frame: performance.now() - t0}), 0));
        })""", [selector, value, event])
        timings.append((f"{selector[3:]}={value!r}", t["sync"], t["frame"]))
    worst = max(s for _, s, _ in timings)
    worst_frame = max(f for _, _, f in timings)
    for name, s, f in timings:
        print(f"     {name:16} filter+render+layout {s:6.2f} ms, to next frame {f:6.2f} ms")
    check("filtering 10,000 entries and re-rendering takes ≤ 100 ms", worst <= 100, f"worst {worst:.2f} ms; to next frame {worst_frame:.2f} ms")
    scroll = page.evaluate("""() => {
        const list = document.querySelector('#exchange-list');
        const times = [];
        for (let i = 1; i <= 50; i++) {
            const t0 = performance.now();
            list.scrollTop = i * 4000;
            list.dispatchEvent(new Event('scroll'));
            document.body.offsetHeight;
            times.push(performance.now() - t0);
        }
        return Math.max(...times);
    }""")
    check("scroll jumps through 10,000 rows are cheap", scroll < 16, f"worst {scroll:.2f} ms")
    check("rendered rows stay few (virtual list)", page.locator("#exchange-list .vrow").count() < 80, f"{page.locator('#exchange-list .vrow').count()} row elements")
    page.screenshot(path=str(shots / "inspector-10000.png"))

    # ---- nothing ran -----------------------------------------------------------------------------
    check("window.pwned stays undefined", page.evaluate("typeof window.pwned") == "undefined")
    check("no dialog was opened by data", not dialogs, "; ".join(dialogs))
    check("no <img> or extra <script> element came from data",
          page.evaluate("document.querySelectorAll('img').length === 0 && document.querySelectorAll('script').length === 1"))
    # The 409 (read-only cassette) and 400 (unreadable explain text) above are answers the page
    # expects; Chromium logs every non-2xx fetch as a console error anyway.
    expected = re.compile(r"status of (409|400) ")
    problems = [p for p in problems if not expected.search(p)]
    check("no console error or CSP violation", not problems, "; ".join(problems[:3]))

    dark = browser.new_context(viewport={"width": 1400, "height": 860}, color_scheme="dark").new_page()
    dark.goto(url)
    dark.wait_for_selector("#exchange-list .vrow")
    dark.locator("#exchange-list .vrow[data-index='1']").click()
    dark.wait_for_selector("#detail .detail-scroll")
    dark.screenshot(path=str(shots / "inspector-dark.png"))


if __name__ == "__main__":
    sys.exit(main())
