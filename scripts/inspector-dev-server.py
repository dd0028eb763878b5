#!/usr/bin/env python3
"""DEV-ONLY fixture server for the inspector web page (Sources/TonearmServer/Inspector/Web).

Not Tonearm and not a test: it serves the Web folder under /__tonearm/inspector/dev/ with the real
server's CSP and answers the API of the inspector contract from in-memory fake data, so the page can be
worked on (and checked with scripts/inspector-dev-check.py) without building the Swift server.
The fake data deliberately contains markup (a URL with <script>, an <img onerror> body, a header value
closing a textarea) to show that the page renders it as text.

Usage:
  python3 scripts/inspector-dev-server.py [--port 0] [--rate 3] [--preload 200]
It prints the page's URL on its first line. POST api/dev/burst {"count": N} adds N exchanges at once
(the event stream then reports most of them as `skipped`, as the real one does when flooded).
"""
import argparse
import json
import random
import shlex
import sys
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

BASE = "/__tonearm/inspector/dev/"
WEB = Path(__file__).resolve().parent.parent / "Sources" / "TonearmServer" / "Inspector" / "Web"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
JOURNAL_LIMIT = 10000
MAX_PER_EVENT = 300

XSS_URL = "https://api.example.com/search?q=<script>window.pwned=1</script>&page=2"
XSS_BODY = "<img src=x onerror=alert(1)>"
XSS_HEADER = "</textarea><script>window.pwned=1</script>"
CASSETTE = "/Users/dev/App/Tests/__Cassettes__/checkout.json"

JSON_HEADERS = [["Content-Type", "application/json"]]
PATHS = ["/v1/users", "/v1/users/42", "/v1/orders", "/v1/orders/7/items", "/v1/cart", "/v1/search",
         "/v2/catalog/products", "/v1/session", "/images/logo.png", "/v1/feature-flags"]


def now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def body(kind, text="", size=None, truncated=False, content_type=None):
    if kind == "empty":
        return {"size": 0, "kept": 0, "truncated": False, "kind": "empty", "contentType": None}
    if kind == "binary":
        size = size or 18342
        hex_dump = ("00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|\n"
                    "00000010  00 00 00 40 00 00 00 40  08 06 00 00 00 aa 69 71  |...@...@......iq|\n"
                    "00000020  de 00 00 00 3c 69 6d 67  20 73 72 63 3d 78 3e 00  |....<img src=x>.|")
        return {"size": size, "kept": min(size, 65536), "truncated": size > 65536, "kind": "binary",
                "contentType": content_type or "image/png", "hex": hex_dump}
    encoded = len(text.encode())
    full = size or encoded
    return {"size": full, "kept": 65536 if truncated else full, "truncated": truncated, "kind": kind,
            "contentType": content_type or ("application/json" if kind == "json" else "text/plain"), "text": text}


def json_body(value, **kw):
    return body("json", json.dumps(value, indent=2), **kw)


class World:
    """All fake state, guarded by one condition (also used to wake the event streams)."""

    def __init__(self):
        self.cond = threading.Condition()
        self.rng = random.Random(7)
        self.journal = []  # full exchange records, oldest first; ids contiguous
        self.next_id = 0
        self.mode = "replay"
        self.state_version = 0
        self.tracks = [{"position": i, "method": m, "url": f"https://api.example.com{p}" + ("?page=1" if p == "/v1/users" else ""),
                        "name": n, "status": s, "plays": 0, "playable": True}
                       for i, (m, p, n, s) in enumerate([
                           ("GET", "/v1/users", "list users", 200), ("GET", "/v1/users/42", None, 200),
                           ("POST", "/v1/orders", "create order", 201), ("GET", "/v1/orders/7/items", None, 200),
                           ("GET", "/v1/cart", XSS_HEADER, 200), ("DELETE", "/v1/cart", None, 204),
                           ("GET", "/v1/search", "search", 200), ("GET", "/v2/catalog/products", None, 200),
                           ("POST", "/v1/session", "log in (unique play)", 200), ("GET", "/v1/feature-flags", None, 200),
                           ("GET", "/v1/legacy/report", "never used", 200)])]
        self.tracks[8]["playable"] = False
        self.tracks[8]["plays"] = 1
        self.rules = [{"position": 0, "name": "health check", "method": "GET", "pattern": "https://api.example.com/health",
                       "hits": 0, "origin": "rule file"},
                      {"position": 1, "name": "images", "method": None, "pattern": "https://cdn.example.net/images/*",
                       "hits": 0, "origin": "cassette"}]
        self.mappings = [{"id": "5f0c6a1e-8d0b-4a57-9d2e-2f1f9c3e7b10", "name": "pay (checkout)", "method": "POST",
                          "url": "/v1/checkout/pay", "hits": 0, "scenario": "checkout", "requiredState": "Started", "newState": "paid"},
                         {"id": "b2f8e0d4-1c7e-4b38-a0a4-6f3e1e9b2c55", "name": None, "method": "GET",
                          "url": "/v1/checkout/status", "hits": 0, "scenario": "checkout", "requiredState": "paid", "newState": None}]
        self.scenarios = [{"name": "checkout", "state": "Started", "states": ["Started", "paid"]},
                          {"name": f"<b>{XSS_BODY}</b>", "state": "Started", "states": ["Started"]}]
        self.misses = {}  # id → miss record (kept while its exchange is; dismissed flag)

    # ---- generation ------------------------------------------------------------------------------

    def make(self, forced=None):
        rng = self.rng
        eid = self.next_id
        self.next_id += 1
        source = forced or rng.choices(
            ["track", "rule", "mapping", "stub", "recorded", "network", "miss", "refused", "upstream-error", "fault", "cancelled"],
            [55, 8, 6, 4, 4, 5, 9, 2, 2, 3, 2])[0]
        xss = forced is None and eid % 40 == 5
        path = rng.choice(PATHS)
        method = {"/v1/orders": "POST", "/v1/session": "POST", "/v1/cart": rng.choice(["GET", "DELETE", "PUT"])}.get(path, "GET")
        if rng.random() < 0.02:
            method = rng.choice(["PATCH", "OPTIONS", "HEAD", "PROPFIND"])
        url = XSS_URL if xss else f"https://api.example.com{path}" + (f"?page={rng.randint(1, 9)}&sort=name" if path == "/v1/users" else "")
        if path == "/images/logo.png":
            url = "https://cdn.example.net/images/logo.png"
        req_headers = [["Accept", "application/json"], ["User-Agent", "MyApp/3.2 (UI tests)"], ["X-Request-Id", f"req-{eid:06d}"]]
        req_body = body("empty")
        if method in ("POST", "PUT", "PATCH"):
            req_headers.append(["Content-Type", "application/json"])
            req_body = json_body({"items": [{"sku": "A-1", "qty": rng.randint(1, 3)}], "note": XSS_BODY if xss else "leave at door"})
        status, detail, why, resp, miss = 200, "", None, None, None
        resp_headers = [["Content-Type", "application/json"], ["Cache-Control", "no-store"]]
        if xss:
            resp_headers.append(["X-Debug", XSS_HEADER])
        if source == "track":
            track = self.tracks[PATHS.index(path) % len(self.tracks)] if path in PATHS else self.tracks[0]
            track["plays"] += 1
            status, detail, why = track["status"], f"track #{track['position']}", "same key: method, URL and body equal"
        elif source == "rule":
            self.rules[0]["hits"] += 1
            status, detail, why = 200, "rule #0 health check", "URL matches the rule's pattern"
        elif source == "mapping":
            self.mappings[0]["hits"] += 1
            status, detail, why = 200, "mapping pay (checkout)", "scenario checkout in state Started"
        elif source == "stub":
            status, detail, why = 200, "stub #2", "stubbed in the test"
        elif source == "recorded":
            status, detail, why = 200, "recorded from https://api.example.com", "missing mode: recorded as track #" + str(len(self.tracks))
        elif source == "network":
            status, detail, why = rng.choice([200, 200, 304, 500]), "https://api.example.com", "passthrough"
        elif source == "miss":
            status, detail, why = 599, "not recorded", None
        elif source == "refused":
            status, detail, why = 403, "host not allowed: evil.example.org", "no upstream configured for this host"
        elif source == "upstream-error":
            status, detail, why = 502, "https://api.example.com: connection refused", None
        elif source == "fault":
            status, detail, why = None, "track #4 fault: connection reset", "the track records a transport fault"
        elif source == "cancelled":
            status, detail, why = None, "client went away", None
        if status is not None:
            if path == "/images/logo.png":
                resp = {"status": status, "headers": [["Content-Type", "image/png"]], "body": body("binary", size=rng.choice([18342, 204800]))}
            elif status == 204:
                resp = {"status": status, "headers": [], "body": body("empty")}
            elif eid % 25 == 3:
                text = json.dumps({"items": [{"id": i, "name": f"Product {i}", "tags": ["a", "b"]} for i in range(60)]}, indent=2)
                resp = {"status": status, "headers": resp_headers, "body": body("json", text, size=1048576, truncated=True)}
            elif source == "miss":
                resp = {"status": 599, "headers": [["Content-Type", "text/plain"]], "body": body("text", "Tonearm: not recorded (see the inspector)")}
            else:
                resp = {"status": status, "headers": resp_headers,
                        "body": json_body({"id": eid, "name": XSS_BODY if xss else "Ada Lovelace", "page": 2, "ok": True})}
        record = {"id": eid, "time": now_iso(), "method": method, "url": url, "status": status, "source": source,
                  "detail": XSS_HEADER if xss and source != "miss" else detail, "ms": round(rng.uniform(0.08, 4.0) if source != "network" else rng.uniform(40, 900), 2),
                  "request": {"method": method, "url": url, "headers": req_headers, "body": req_body},
                  "response": resp,
                  "answeredBy": {"kind": source, "detail": detail, "why": why,
                                 "request": {"method": method, "url": url.split("?")[0]} if source == "track" else None}}
        if source == "miss":
            miss = self.make_miss(eid, method, url)
            self.misses[eid] = miss
        record["curl"] = self.curl(record["request"])
        self.journal.append(record)
        if len(self.journal) > JOURNAL_LIMIT:
            for gone in self.journal[: len(self.journal) - JOURNAL_LIMIT]:
                self.misses.pop(gone["id"], None)
            del self.journal[: len(self.journal) - JOURNAL_LIMIT]
        return record

    def make_miss(self, eid, method, url):
        near = self.tracks[0]
        received_page = url.split("page=")[1].split("&")[0] if "page=" in url else "3"
        candidates = [
            {"index": 0, "kind": "track", "position": near["position"], "name": near["name"], "method": "GET", "url": near["url"],
             "pattern": None, "description": f"query parameter page differs; {XSS_BODY}",
             "differences": [
                 {"field": "queryParameter", "name": "page", "recorded": ["1"], "received": [received_page],
                  "description": f"query parameter page: recorded 1, received {received_page}"},
                 {"field": "header", "name": "X-Debug", "recorded": [XSS_HEADER], "received": None,
                  "description": "header X-Debug: recorded, absent"}] + (
                 [{"field": "method", "name": None, "recorded": ["GET"], "received": [method], "description": "method differs"}]
                 if method != "GET" else []),
             "response": {"status": 200, "headers": JSON_HEADERS + [["X-Debug", XSS_HEADER]],
                          "body": json_body({"users": [{"id": 1, "name": XSS_BODY}], "page": 1})}},
            {"index": 1, "kind": "rule", "position": 0, "name": "health check", "method": "GET", "url": None,
             "pattern": "https://api.example.com/health", "description": "path differs",
             "differences": [{"field": "path", "name": None, "recorded": ["/health"], "received": [urlsplit(url).path],
                              "description": "path differs"}],
             "response": {"status": 200, "headers": [["Content-Type", "text/plain"]], "body": body("text", "ok")}},
            {"index": 2, "kind": "mapping", "position": 1, "name": None, "method": "GET", "url": None,
             "pattern": "/v1/checkout/status", "description": "scenario checkout is in state Started, mapping needs paid",
             "differences": [{"field": "scenarioState", "name": "checkout", "recorded": ["paid"], "received": ["Started"],
                              "description": "scenario state"},
                             {"field": "jsonBody", "name": "$.items[0].qty", "recorded": ["1"], "received": ["2"], "description": "JSON body"}],
             "response": None},
        ]
        upstream = url.startswith("https://api.example.com")
        return {"id": eid, "reason": "not recorded", "reasonCode": "not-recorded", "key": f"{self.rng.getrandbits(64):016x}",
                "report": f"Tonearm: no track for {method} {url}\n  nearest: track #0 (list users)\n    query parameter page: recorded 1, received {received_page}\n  {XSS_HEADER}",
                "nearest": candidates if eid % 7 else [],
                "actions": {"accept": True, "record": upstream, **({} if upstream else {"recordWhyNot": "no upstream for https://cdn.example.net"})},
                "dismissed": False}

    @staticmethod
    def curl(request):
        parts = ["curl", "-X", request["method"], shlex.quote(request["url"])]
        for name, value in request["headers"]:
            parts += ["-H", shlex.quote(f"{name}: {value}")]
        if request["body"].get("text"):
            parts += ["--data-raw", shlex.quote(request["body"]["text"])]
        return " ".join(parts)

    # ---- documents -------------------------------------------------------------------------------

    @staticmethod
    def summary(record):
        return {k: record[k] for k in ("id", "time", "method", "url", "status", "source", "detail", "ms")}

    def state(self):
        open_misses = sum(1 for m in self.misses.values() if not m["dismissed"])
        return {"url": "http://127.0.0.1:0", "mode": self.mode, "strategy": "repeat", "cassette": CASSETTE,
                "cassetteWritable": True, "exchanges": self.next_id, "misses": open_misses, "journalLimit": JOURNAL_LIMIT,
                "upstreams": ["https://api.example.com"]}

    def oldest(self):
        return self.journal[0]["id"] if self.journal else 0

    def after(self, after, limit=JOURNAL_LIMIT):
        start = max(0, after + 1 - self.oldest()) if after is not None else 0
        return self.journal[start:start + limit]

    def find(self, eid):
        index = eid - self.oldest()
        return self.journal[index] if 0 <= index < len(self.journal) else None


WORLD = World()


class Handler(BaseHTTPRequestHandler):
    server_version = "TonearmDev/0"

    def log_message(self, *args):  # quiet: the check script reads stdout
        pass

    def send(self, status, doc=None, content_type="application/json"):
        data = b"" if doc is None else (doc if isinstance(doc, bytes) else json.dumps(doc).encode())
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def route(self):
        parts = urlsplit(self.path)
        if not parts.path.startswith(BASE):
            return None, None
        return parts.path[len(BASE):], parse_qs(parts.query)

    def do_GET(self):
        rel, query = self.route()
        if rel is None:
            return self.send(404, {"error": "not found"})
        if rel in ("", "index.html") or (rel.endswith((".js", ".css")) and "/" not in rel):
            file = WEB / (rel or "index.html")
            if not file.is_file():
                return self.send(404, {"error": "no such asset"})
            return self.send(200, file.read_bytes(), TYPES[file.suffix])
        if rel == "events":
            return self.events()
        with WORLD.cond:
            if rel == "api/state":
                return self.send(200, WORLD.state())
            if rel == "api/exchanges":
                after = int(query["after"][0]) if "after" in query else None
                limit = min(JOURNAL_LIMIT, int(query.get("limit", [JOURNAL_LIMIT])[0]))
                return self.send(200, {"total": WORLD.next_id, "oldest": WORLD.oldest(),
                                       "entries": [WORLD.summary(r) for r in WORLD.after(after, limit)]})
            if rel.startswith("api/exchanges/"):
                record = WORLD.find(int(rel.rsplit("/", 1)[1]))
                if not record:
                    return self.send(404, {"error": "no longer kept"})
                miss = WORLD.misses.get(record["id"])
                return self.send(200, {**record, "miss": miss})
            if rel == "api/misses":
                return self.send(200, [{**WORLD.summary(WORLD.find(i)), "miss": m}
                                       for i, m in sorted(WORLD.misses.items()) if not m["dismissed"] and WORLD.find(i)])
            if rel == "api/cassette":
                return self.send(200, {"file": CASSETTE, "format": "json", "strategy": "fifo", "tracks": WORLD.tracks,
                                       "rules": WORLD.rules, "mappings": WORLD.mappings, "scenarios": WORLD.scenarios})
        return self.send(404, {"error": "not found"})

    def do_POST(self):
        rel, _ = self.route()
        if rel is None:
            return self.send(404, {"error": "not found"})
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            return self.send(415, {"error": "POST bodies must be application/json"})
        try:
            doc = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"null")
        except ValueError:
            return self.send(400, {"error": "the body is not JSON"})
        with WORLD.cond:
            result = self.post(rel, doc)
            WORLD.cond.notify_all()
        return self.send(*result)

    def post(self, rel, doc):
        parts = rel.split("/")
        if len(parts) == 4 and parts[:2] == ["api", "misses"]:
            miss = WORLD.misses.get(int(parts[2]))
            if not miss or miss["dismissed"]:
                return 404, {"error": "miss no longer kept"}
            action = parts[3]
            if action == "dismiss":
                miss["dismissed"] = True
                return (204,)
            if action == "record":
                if not miss["actions"]["record"]:
                    return 409, {"error": miss["actions"]["recordWhyNot"]}
                del WORLD.misses[miss["id"]]
                return 200, {"recorded": True, "status": 200, "file": CASSETTE}
            if action == "accept":
                if "candidate" in doc:
                    c = next((c for c in miss["nearest"] if c["index"] == doc["candidate"]), None)
                    if c is None or c["response"] is None:
                        return 400, {"error": "no such candidate with a response"}
                elif not isinstance(doc.get("response"), dict) or not isinstance(doc["response"].get("status"), int):
                    return 400, {"error": "expected {\"candidate\": i} or {\"response\": {...}}"}
                # Every third miss pretends the cassette is read-only, to show the 409 path.
                if miss["id"] % 3 == 0:
                    native = {"request": {"method": "GET", "url": WORLD.find(miss["id"])["url"]},
                              "response": doc.get("response") or {"status": 200, "headers": JSON_HEADERS, "body": XSS_HEADER}}
                    return 409, {"error": "the cassette is a HAR file, which Tonearm does not write",
                                 "native": json.dumps(native, indent=2)}
                del WORLD.misses[miss["id"]]
                record = WORLD.find(miss["id"])
                WORLD.tracks.append({"position": len(WORLD.tracks), "method": record["method"], "url": record["url"],
                                     "name": None, "status": (doc.get("response") or {}).get("status", 200), "plays": 0, "playable": True})
                return 200, {"accepted": True, "file": CASSETTE, "format": "json", "track": len(WORLD.tracks) - 1}
        if rel == "api/scenarios/reset":
            for s in WORLD.scenarios:
                s["state"] = "Started"
            return (204,)
        if rel == "api/reset":
            for t in WORLD.tracks:
                t["playable"] = True
            return (204,)
        if rel == "api/mode":
            if doc.get("mode") not in ("replay", "missing"):
                return 400, {"error": "mode must be replay or missing"}
            WORLD.mode = doc["mode"]
            return 200, WORLD.state()
        if rel == "api/explain":
            return explain(doc.get("text", "") if isinstance(doc, dict) else "")
        if rel == "api/dev/burst":  # dev only: flood the journal
            for _ in range(int(doc.get("count", 1000))):
                WORLD.make()
            return 200, {"total": WORLD.next_id}
        return 404, {"error": "not found"}

    def events(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", CSP)
        self.end_headers()
        last_event = self.headers.get("Last-Event-ID")
        with WORLD.cond:
            # A fresh connection gets what happens from now on (the page loaded the rest itself).
            last = int(last_event) if last_event and last_event.isdigit() else WORLD.next_id - 1
            state = WORLD.state()
        try:
            self.write_event("state", state)
            sent_state, alive = json.dumps(state), time.monotonic()
            while True:
                with WORLD.cond:
                    WORLD.cond.wait(timeout=0.25)
                    new = WORLD.after(last)
                    state = WORLD.state()
                    total, oldest = WORLD.next_id, WORLD.oldest()
                if new:
                    batch = new[-MAX_PER_EVENT:]
                    last = batch[-1]["id"]
                    self.write_event("exchanges", {"total": total, "oldest": oldest, "entries": [World.summary(r) for r in batch],
                                                   "skipped": len(new) - len(batch)}, last)
                if json.dumps(state) != sent_state:
                    sent_state = json.dumps(state)
                    self.write_event("state", state)
                if time.monotonic() - alive > 15:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    alive = time.monotonic()
        except (BrokenPipeError, ConnectionResetError):
            return

    def write_event(self, name, doc, eid=None):
        text = f"event: {name}\n" + (f"id: {eid}\n" if eid is not None else "") + f"data: {json.dumps(doc)}\n\n"
        self.wfile.write(text.encode())
        self.wfile.flush()


def explain(text):
    """A tiny reader of curl commands and raw requests: enough to show the page's answers and errors."""
    text = text.strip()
    if not text:
        return 400, {"error": "empty request", "line": 1, "column": 1}
    if text.startswith("curl"):
        try:
            words = shlex.split(text.replace("\\\n", " "))
        except ValueError as error:
            return 400, {"error": f"cannot split the command: {error}", "line": 1, "column": len(text.splitlines()[0])}
        method, url, headers, data = "GET", None, [], None
        i = 1
        while i < len(words):
            w = words[i]
            if w in ("-X", "--request"):
                method, i = words[i + 1], i + 1
            elif w in ("-H", "--header"):
                name, _, value = words[i + 1].partition(":")
                headers.append([name.strip(), value.strip()])
                i += 1
            elif w in ("-d", "--data", "--data-raw"):
                data, i = words[i + 1], i + 1
                method = method if method != "GET" else "POST"
            elif w.startswith("http"):
                url = w
            i += 1
        if not url:
            return 400, {"error": "no URL in the curl command", "line": 1, "column": len(text.splitlines()[0])}
    else:
        lines = text.replace("\r\n", "\n").split("\n")
        first = lines[0].split(" ")
        if len(first) != 3 or not first[2].startswith("HTTP/"):
            return 400, {"error": "expected a request line: METHOD /path HTTP/1.1", "line": 1, "column": len(lines[0]) + 1}
        method, target = first[0], first[1]
        headers, data = [], None
        for n, line in enumerate(lines[1:], start=2):
            if not line:
                data = "\n".join(lines[n:]) or None
                break
            if ":" not in line:
                return 400, {"error": "expected a header line Name: value", "line": n, "column": 1}
            name, _, value = line.partition(":")
            headers.append([name.strip(), value.strip()])
        host = next((v for k, v in headers if k.lower() == "host"), None)
        if not host:
            return 400, {"error": "no Host header", "line": 1, "column": 1}
        url = f"https://{host}{target}"
    req_body = body("json" if data and data.lstrip().startswith("{") else "text", data) if data else body("empty")
    canonical = f"method {method.upper()}\nurl {url.split('?')[0]}\nquery {url.partition('?')[2]}\nbody:raw {data or ''}"
    hit = "/v1/users/42" in url
    with WORLD.cond:
        miss = None if hit else {**WORLD.make_miss(-1, method, url), "id": None}
    answer = ({"kind": "track", "detail": "track #1", "status": 200, "miss": None} if hit
              else {"kind": "miss", "detail": "not recorded", "status": None, "miss": miss})
    return 200, {"request": {"method": method, "url": url, "headers": headers, "body": req_body},
                 "canonical": canonical, "key": f"{abs(hash(canonical)):016x}", "answer": answer}


def generate(rate):
    while True:
        time.sleep(1 / rate)
        with WORLD.cond:
            WORLD.make()
            WORLD.cond.notify_all()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--rate", type=float, default=3, help="new exchanges per second (0: none)")
    parser.add_argument("--preload", type=int, default=200, help="exchanges in the journal at start")
    args = parser.parse_args()
    with WORLD.cond:
        for source in ("miss", "track", "miss", "fault"):  # a few known kinds first
            WORLD.make(source)
        xss = WORLD.make("miss")  # a miss whose URL carries markup
        xss["url"] = xss["request"]["url"] = XSS_URL
        xss["curl"] = World.curl(xss["request"])
        for _ in range(max(0, args.preload - 5)):
            WORLD.make()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"http://127.0.0.1:{server.server_address[1]}{BASE}", flush=True)
    if args.rate > 0:
        threading.Thread(target=generate, args=(args.rate,), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
