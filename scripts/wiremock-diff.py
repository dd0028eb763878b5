#!/usr/bin/env python3
"""Differential test of `tonearm serve --root-dir` against WireMock itself.

Starts the WireMock standalone jar and `tonearm serve`, each on 127.0.0.1 with its own copy of one root
directory (each server writes into its own: save, persistent mappings, deletes), sends both the same
cases (admin calls, file writes, then requests) and reports every difference in status, headers and
body after normalising what must differ between two servers (dates, ids, timings, Server and Date).

    scripts/wiremock-diff.py --tonearm .build/debug/tonearm \
        --jar .build/python-venv/lib/python3.*/site-packages/wiremock/server/wiremock-standalone-2.35.1.jar

Cases are in scripts/wiremock-diff/cases.json; differences Tonearm keeps on purpose are in
scripts/wiremock-diff/known-differences.json with their reason (docs/server.md, "Differences from
WireMock", one bullet each). An entry accepts a difference only in the cases its `case` names, in the
parts its `what` names and, where given, with the exact values `wiremock`, `tonearm` or one of the
[WireMock, Tonearm] pairs in `answers`: narrow, so that a new difference is reported, not absorbed.
Then WireMock's own Java client (scripts/wiremock-diff/StrictClient.java, run from the jar) drives
Tonearm: it refuses unknown fields, so an extra field in an admin answer is a difference too.
The last full run (the command above): "648 cases (59 from WireMock 3.x's tests, against Tonearm alone),
2266 steps: 0 unexplained differences, 158 known" (35 entries).

Cases marked "wiremock3" hold what WireMock 3.x's own tests expect, for behaviour the 2.35.1 jar does
not have (no 3.x jar is reachable here): the member names the source test (3.13.2, class and method),
the case runs against Tonearm alone, and each request step's "expect" (status, body, body_contains,
headers, json: members the JSON answer must have) is compared with Tonearm's answer. The cases compared
with the 2.35.1 jar run against `tonearm serve --wiremock-version 2 --local-response-templating` (2.35's
routes, file listing and template escaping, templating as the jar is started), those from 3.x's tests
against a second `tonearm serve` with the default (`--wiremock-version 3`). When every selected case is a 3.x one, the jar is not started (--jar may then be
left out).
Exit status: 0 when every difference is known, 1 when one is not, 2 when a server could not start.
"""

import argparse
import base64
import glob
import gzip
import http.client
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "wiremock-diff", "cases.json")
KNOWN = os.path.join(HERE, "wiremock-diff", "known-differences.json")

# Headers two servers cannot agree on, or that say how (not what) a body was framed.
IGNORED_HEADERS = {"date", "server", "content-length", "transfer-encoding", "connection", "keep-alive", "vary"}
# Header values that are ids: compared for presence only.
ID_HEADERS = {"matched-stub-id"}
# Admin JSON members that hold times or versions.
VOLATILE_KEYS = {"loggedDate", "loggedDateString", "timing", "timestamp", "uptimeInSeconds", "version"}
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def free_port():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        return listener.getsockname()[1]


def wait_until_answering(port, process, what, seconds=90):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode} before answering")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/__admin/mappings")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not answer /__admin/mappings within {seconds} s")


class Server:
    def __init__(self, name, command, root, port, log):
        self.name, self.root, self.port = name, root, port
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_until_answering(port, self.process, name)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def send(self, method, path, headers=(), body=b""):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        try:
            connection.putrequest(method, path, skip_host=False, skip_accept_encoding=True)
            for name, value in headers:
                connection.putheader(name, value)
            if body or method in ("POST", "PUT", "PATCH"):
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body or None)
            response = connection.getresponse()
            return response.status, response.getheaders(), response.read(), response.reason
        except (OSError, http.client.HTTPException) as error:
            return f"error: {type(error).__name__}", [], b"", ""
        finally:
            connection.close()


def request_parts(step):
    headers = []
    for name, value in step.get("headers", {}).items():
        for one in value if isinstance(value, list) else [value]:
            headers.append((name, one))
    if "json" in step:
        body = json.dumps(step["json"]).encode()
        if not any(name.lower() == "content-type" for name, _ in headers):
            headers.append(("Content-Type", "application/json"))
    elif "base64" in step:
        body = base64.b64decode(step["base64"])
    else:
        body = step.get("body", "").encode()
    return headers, body


class RecordingUpstream(http.server.BaseHTTPRequestHandler):
    """The upstream both servers record from (`<upstream-base>` in a step): answers that depend only on
    the request, with no Date or Server header, so two recordings of it compare equal.

    /rec/json...: JSON naming the path and method; /rec/binary...: the 256 byte values; /rec/xml, /rec/html,
    /rec/png: a small body of that type; /rec/big...: 2,000 bytes of text; /rec/secret: a Set-Cookie; /rec/missing: 404; anything else: text echoing the method,
    path and body. An `X-Echo` request header comes back as a response header; /rec/multi... answers
    X-Multi twice."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        status, content_type, headers = 200, "text/plain", []
        if self.path.startswith("/rec/json"):
            content_type = "application/json"
            out = json.dumps({"path": self.path, "method": self.command, "items": [1, 2, 3]}).encode()
        elif self.path.startswith("/rec/binary"):
            content_type = "application/octet-stream"
            out = bytes(range(256))
        elif self.path.startswith("/rec/xml"):
            content_type, out = "application/xml", b"<a><b>xml answer</b></a>"
        elif self.path.startswith("/rec/html"):
            content_type, out = "text/html; charset=utf-8", b"<html><body>html answer</body></html>"
        elif self.path.startswith("/rec/png"):
            content_type, out = "image/png", b"\x89PNG\r\n\x1a\n" + bytes(range(40))
        elif self.path.startswith("/rec/big"):
            out = ("big " * 500).encode()
        elif self.path.startswith("/rec/secret"):
            headers.append(("Set-Cookie", "session=s3cr3t"))
            out = b"secret"
        elif self.path.startswith("/rec/missing"):
            status, out = 404, b"not here"
        else:
            out = f"hello {self.command} {self.path}".encode() + (b" " + body if body else b"")
        if self.path.startswith("/rec/multi"):
            headers += [("X-Multi", "one"), ("X-Multi", "two")]
        if self.headers.get("X-Echo"):
            headers.append(("X-Echo", self.headers["X-Echo"]))
        self.send_response_only(status)
        self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = answer


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a server under test closing a pooled connection is no error of the upstream's


def start_upstream():
    server = QuietServer(("127.0.0.1", 0), RecordingUpstream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Renamer:
    """Renames ids in order of first appearance, so two servers' generated ids compare equal."""

    def __init__(self, port, root):
        self.names = {}
        self.port = port
        self.address = f"127.0.0.1:{port}"
        # Each server has its own copy of the root directory; paths in answers (GET files) name it.
        self.root = os.path.realpath(root)

    def __call__(self, text):
        text = text.replace(self.address, "<address>").replace(self.root, "<root>")
        def rename(match):
            key = match.group(0).lower()
            return self.names.setdefault(key, f"<id{len(self.names) + 1}>")
        return UUID.sub(rename, text)


def normalise_json(value, rename, error_members=()):
    if isinstance(value, dict):
        result = {}
        for key in sorted(value):
            if key in VOLATILE_KEYS:
                continue
            if key == "errors" and isinstance(value[key], list):
                # Where an error points is compared; its wording is each server's own, unless the step
                # names the members to compare too (compare_errors: ["code", "title"]).
                result[key] = [dict({"pointer": (e.get("source") or {}).get("pointer")},
                                    **{member: e.get(member) for member in error_members})
                               for e in value[key] if isinstance(e, dict)]
                continue
            if key in ("bodyAsBase64", "base64Body"):
                continue  # the same bytes as `body`, compared there
            result[key] = normalise_json(value[key], rename, error_members)
        return result
    if isinstance(value, list):
        return [normalise_json(item, rename, error_members) for item in value]
    if isinstance(value, str):
        return rename(value)
    if value == rename.port and not isinstance(value, bool):
        return "<port>"
    return value


def observe(server, step, rename):
    headers, body = request_parts(step)
    method = step.get("admin") or step.get("request")
    status, response_headers, response_body, reason = server.send(method, step["path"], headers, body)
    seen = {}
    # compare_framing: whether the answer states its length or comes chunked is compared too.
    ignored = IGNORED_HEADERS - {"content-length", "transfer-encoding"} if step.get("compare_framing") else IGNORED_HEADERS
    for name, value in response_headers:
        lowered = name.lower()
        if lowered in ignored:
            continue
        value = "<present>" if lowered in ID_HEADERS else rename(value)
        seen.setdefault(lowered, []).append(value)
    if "gzip" in seen.get("content-encoding", []):
        # Compressed bytes differ with the compressor and its settings: compare what they decode to.
        try:
            response_body = gzip.decompress(response_body)
        except OSError:
            response_body = b"<not gzip>"
    text = response_body.decode("utf-8", errors="replace")
    if "body_matches" in step:
        # Random values and clocks: the body is compared by its shape, a regular expression both must match.
        shown = "<matches body_matches>" if re.fullmatch(step["body_matches"], text) else text
        return {"status": status, "headers": seen, "body": shown, "reason": reason}
    if step.get("body_as_text"):
        # Where the bytes matter (member order, numbers as written), the body is compared as text.
        return {"status": status, "headers": seen, "body": rename(text), "reason": reason}
    try:
        parsed = json.loads(text) if text.strip() else None
        shown = normalise_json(parsed, rename, step.get("compare_errors", ())) if parsed is not None else ""
    except ValueError:
        shown = rename(text)
    return {"status": status, "headers": seen, "body": shown, "reason": reason}


def differences(case_name, index, wiremock, tonearm, step):
    found = []
    if wiremock["status"] != tonearm["status"]:
        # Headers and body of two different answers say nothing more.
        return [(f"{case_name}#{index}", "status", wiremock["status"], tonearm["status"])]
    if step.get("compare_reason") and wiremock["reason"] != tonearm["reason"]:
        found.append((f"{case_name}#{index}", "reason phrase", wiremock["reason"], tonearm["reason"]))
    if step.get("compare", "all") == "status":
        return found
    if wiremock["status"] == 404 and "tonearm-miss" in tonearm["headers"]:
        # A miss: each server explains it its own way (WireMock's diff report, Tonearm's nearest tracks).
        return found
    for name in sorted(set(wiremock["headers"]) | set(tonearm["headers"])):
        if name in step.get("ignore_headers", []):
            continue
        if wiremock["headers"].get(name) != tonearm["headers"].get(name):
            found.append((f"{case_name}#{index}", f"header {name}", wiremock["headers"].get(name), tonearm["headers"].get(name)))
    if step.get("compare") != "headers" and wiremock["body"] != tonearm["body"]:
        found.extend(body_differences(f"{case_name}#{index}", "body", wiremock["body"], tonearm["body"]))
    return found


def body_differences(where, path, expected, found):
    """Differences member by member, so a report names `body.request.cookies` rather than a whole body."""
    if isinstance(expected, dict) and isinstance(found, dict):
        result = []
        for key in list(expected) + [k for k in found if k not in expected]:
            if expected.get(key, "<absent>") != found.get(key, "<absent>"):
                result.extend(body_differences(where, f"{path}.{key}", expected.get(key, "<absent>"), found.get(key, "<absent>")))
        return result
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        result = []
        for position, (left, right) in enumerate(zip(expected, found)):
            result.extend(body_differences(where, f"{path}[{position}]", left, right))
        return result
    return [(where, path, expected, found)]


def saved_files(server, pattern, rename):
    """The files under the root directory that `pattern` matches, by their names with ids renamed, each
    with its content (JSON normalised as answers are; WireMock's insertionIndex left out)."""
    found = {}
    for path in sorted(glob.glob(os.path.join(server.root, pattern))):
        with open(path, "rb") as file:
            content = file.read()
        try:
            parsed = json.loads(content)
            if isinstance(parsed, dict):
                parsed.pop("insertionIndex", None)
            shown = normalise_json(parsed, rename)
        except ValueError:
            shown = base64.b64encode(content).decode()
        found[rename(os.path.relpath(path, server.root))] = shown
    return found


def reset(servers):
    """Each server as a case starts it: no recording, empty mappings and __files, an empty journal."""
    for server in servers:
        # A recording left running by a case would write its mappings into the next case's folders.
        server.send("POST", "/__admin/recordings/stop")
    for server in servers:
        folder = os.path.join(server.root, "mappings")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        shutil.rmtree(os.path.join(server.root, "__files"), ignore_errors=True)
        os.makedirs(os.path.join(server.root, "__files"))
        server.send("POST", "/__admin/reset")
        server.send("DELETE", "/__admin/mappings")


def run_case(case, servers, upstream_base):
    renamers = {server.name: Renamer(server.port, server.root) for server in servers}
    reset(servers)
    found = []
    # A proxy mapping's upstream is the WireMock server itself, for both servers: "<wiremock-base>" in a
    # step stands for its URL.
    wiremock_base = f"http://127.0.0.1:{servers[0].port}"
    for index, step in enumerate(case["steps"]):
        if "<wiremock-base>" in json.dumps(step) or "<upstream-base>" in json.dumps(step):
            step = json.loads(json.dumps(step).replace("<wiremock-base>", wiremock_base).replace("<upstream-base>", upstream_base))
        if "write" in step:
            for server in servers:
                target = os.path.join(server.root, step["write"])
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w") as file:
                    file.write(json.dumps(step["json"]) if "json" in step else step.get("text", ""))
            continue
        if "exists" in step:
            wiremock_has, tonearm_has = (bool(glob.glob(os.path.join(s.root, step["exists"]))) for s in servers)
            if wiremock_has != tonearm_has:
                found.append((f"{case['name']}#{index}", f"file {step['exists']}", wiremock_has, tonearm_has))
            continue
        if "files" in step:
            # The files both servers wrote (recorded mappings and bodies), compared by name and content.
            wiremock_files, tonearm_files = (saved_files(s, step["files"], renamers[s.name]) for s in servers)
            if wiremock_files != tonearm_files:
                found.extend(body_differences(f"{case['name']}#{index}", f"files {step['files']}", wiremock_files, tonearm_files))
            continue
        if "sleep" in step:
            time.sleep(step["sleep"])
            continue
        wiremock, tonearm = (observe(s, step, renamers[s.name]) for s in servers)
        found.extend(differences(case["name"], index, wiremock, tonearm, step))
    return found


def contains_json(expected, found):
    """Whether `found` has every member `expected` names, with equal values (objects compared member by
    member and lists element by element, recursively; anything else compared whole)."""
    if isinstance(expected, dict):
        return isinstance(found, dict) and all(k in found and contains_json(v, found[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(found, list) and len(found) == len(expected) and all(map(contains_json, expected, found))
    return expected == found


def run_wiremock3_case(case, tonearm):
    """A case taken from WireMock 3.x's tests: its steps against Tonearm alone, each request's answer
    compared with the step's "expect". A difference names what the 3.x test expected."""
    reset([tonearm])
    found = []
    for index, step in enumerate(case["steps"]):
        where = f"{case['name']}#{index}"
        if "write" in step:
            target = os.path.join(tonearm.root, step["write"])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w") as file:
                file.write(json.dumps(step["json"]) if "json" in step else step.get("text", ""))
            continue
        headers, body = request_parts(step)
        status, response_headers, response_body, _ = tonearm.send(step.get("admin") or step.get("request"), step["path"], headers, body)
        expect = step.get("expect", {})
        text = response_body.decode("utf-8", errors="replace")
        if "status" in expect and expect["status"] != status:
            found.append((where, "status", expect["status"], status))
            continue
        if "body" in expect and expect["body"] != text:
            found.append((where, "body", expect["body"], text))
        if "body_contains" in expect and expect["body_contains"] not in text:
            found.append((where, "body contains", expect["body_contains"], text[:400]))
        for name, value in expect.get("headers", {}).items():
            seen = [v for n, v in response_headers if n.lower() == name.lower()]
            if value not in seen:
                found.append((where, f"header {name.lower()}", value, seen))
        if "json" in expect:
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = text[:400]
            if not contains_json(expect["json"], parsed):
                found.append((where, "json", expect["json"], parsed))
    return found


def strict_client_refusals(arguments, tonearm):
    """WireMock's Java client against Tonearm: it refuses unknown fields, where the cases compare values.
    Each call it could not make is a difference (case `strict-client`, what: the call)."""
    client = os.path.join(HERE, "wiremock-diff", "StrictClient.java")
    run = subprocess.run([arguments.java, "-cp", arguments.jar, client, str(tonearm.port)],
                         capture_output=True, text=True, timeout=300)
    refusals = []
    for line in run.stdout.splitlines():
        if line.startswith("REFUSED "):
            call, _, error = line[len("REFUSED "):].partition(": ")
            refusals.append(("strict-client", call, "parsed", error[:200]))
    if run.returncode != 0 and not refusals:
        refusals.append(("strict-client", "run", "exit 0", f"exit {run.returncode}: {run.stderr[-400:]}"))
    return refusals


def is_known(difference, known):
    where, what = difference[0], difference[1]
    for entry in known:
        if "wiremock" in entry and entry["wiremock"] != difference[2]:
            continue  # the entry accepts only this answer from WireMock
        if "tonearm" in entry and entry["tonearm"] != difference[3]:
            continue  # and only this one from Tonearm
        if "answers" in entry and [difference[2], difference[3]] not in entry["answers"]:
            continue  # the only [WireMock, Tonearm] pairs accepted
        if re.fullmatch(entry["case"], where.split("#")[0]) and re.fullmatch(entry["what"], what):
            return entry["reason"]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tonearm", required=True, help="the built tonearm binary")
    parser.add_argument("--jar", help="wiremock-standalone-2.35.1.jar (needed unless only wiremock3 cases run)")
    parser.add_argument("--java", default="java")
    parser.add_argument("--cases", default=CASES)
    parser.add_argument("--known", default=KNOWN)
    parser.add_argument("--only", help="a regular expression: run only the cases whose name matches")
    parser.add_argument("--show-known", action="store_true", help="list known differences too")
    arguments = parser.parse_args()

    with open(arguments.cases) as file:
        cases = json.load(file)["cases"]
    with open(arguments.known) as file:
        known = json.load(file)["differences"]
    if arguments.only:
        cases = [c for c in cases if re.search(arguments.only, c["name"])]
    names = [c["name"] for c in cases]
    duplicated = {n for n in names if names.count(n) > 1}
    if duplicated:
        print(f"duplicate case names: {sorted(duplicated)}")
        return 2

    workspace = tempfile.mkdtemp(prefix="wiremock-diff-")
    servers = []
    upstream = start_upstream()
    upstream_base = f"http://127.0.0.1:{upstream.server_address[1]}"
    try:
        roots = {}
        for name in ("wiremock", "tonearm", "tonearm3"):
            roots[name] = os.path.join(workspace, name)
            os.makedirs(os.path.join(roots[name], "mappings"))
            os.makedirs(os.path.join(roots[name], "__files"))
        logs = {name: open(os.path.join(workspace, f"{name}.log"), "w") for name in roots}
        needs_jar = any("wiremock3" not in case for case in cases)
        needs_3x = any("wiremock3" in case for case in cases)
        if needs_jar and not arguments.jar:
            print("--jar is needed: the selected cases compare with WireMock 2.35.1")
            return 2
        try:
            if needs_jar:
                port = free_port()
                # --local-response-templating: WireMock 2.x runs a mapping's "transformers": ["response-template"]
                # only with it (3.x always does, as Tonearm does).
                servers.append(Server("wiremock", [
                    arguments.java, "-jar", arguments.jar, "--port", str(port), "--bind-address", "127.0.0.1",
                    "--root-dir", roots["wiremock"], "--disable-banner", "--local-response-templating"],
                    roots["wiremock"], port, logs["wiremock"]))
                port = free_port()
                servers.append(Server("tonearm", [
                    arguments.tonearm, "serve", "--port", str(port), "--bind", "127.0.0.1", "--wiremock-version", "2", "--local-response-templating",
                    "--root-dir", roots["tonearm"]], roots["tonearm"], port, logs["tonearm"]))
            if needs_3x:
                port = free_port()
                tonearm3 = Server("tonearm3", [
                    arguments.tonearm, "serve", "--port", str(port), "--bind", "127.0.0.1",
                    "--root-dir", roots["tonearm3"]], roots["tonearm3"], port, logs["tonearm3"])
                servers.append(tonearm3)
        except RuntimeError as error:
            print(f"could not start the servers: {error} (logs in {workspace})")
            return 2

        unexplained, explained = [], []
        compared = [server for server in servers if server.name in ("wiremock", "tonearm")]
        for case in cases:
            found = run_wiremock3_case(case, tonearm3) if "wiremock3" in case else run_case(case, compared, upstream_base)
            for difference in found:
                reason = is_known(difference, known)
                (explained if reason else unexplained).append((difference, reason))
        if not arguments.only and needs_jar:
            for difference in strict_client_refusals(arguments, compared[1]):
                reason = is_known(difference, known)
                (explained if reason else unexplained).append((difference, reason))
        for (where, what, expected, found), reason in explained if arguments.show_known else []:
            print(f"known   {where} {what}: WireMock {json.dumps(expected)} / Tonearm {json.dumps(found)} ({reason})")
        for (where, what, expected, found), _ in unexplained:
            print(f"DIFFERS {where} {what}: WireMock {json.dumps(expected)} / Tonearm {json.dumps(found)}")
        steps = sum(len(c["steps"]) for c in cases)
        from_3x = sum(1 for c in cases if "wiremock3" in c)
        print(f"{len(cases)} cases ({from_3x} from WireMock 3.x's tests, against Tonearm alone), {steps} steps: "
              f"{len(unexplained)} unexplained differences, {len(explained)} known")
        return 1 if unexplained else 0
    finally:
        for server in servers:
            server.stop()
        upstream.shutdown()
        shutil.rmtree(workspace, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
