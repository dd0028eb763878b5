"""Runs a curl command line for real against a one-request capture server and prints what curl sent.

Usage: python3 capture_curl.py CURL 'COMMAND LINE'

Listens on 127.0.0.1 port 0 and runs COMMAND LINE (which starts with the word `curl`, or with
`printf '…' | curl`) with bash, in an
empty temporary folder, its word `curl` replaced by CURL --proxy http://127.0.0.1:PORT (so that curl sends
the absolute URL it built, scheme and host included, to this script whatever http host the command
names). So the shell's quoting is bash's own, and the options are curl's own. Accepts one connection, reads one request (Content-Length or chunked body), answers
200 with an empty body, and prints one JSON object: the request line's method and target, the header
fields in order, the body in base64, and curl's exit status and standard error.
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading


def read_request(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            raise EOFError("connection closed before the end of the headers")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.split(b"\r\n")
    method, target, _version = lines[0].decode("latin-1").split(" ", 2)
    headers = []
    for line in lines[1:]:
        name, _, value = line.decode("latin-1").partition(":")
        headers.append([name, value.strip(" \t")])
    lowered = {name.lower(): value for name, value in headers}
    if "content-length" in lowered:
        length = int(lowered["content-length"])
        while len(rest) < length:
            chunk = connection.recv(65536)
            if not chunk:
                break
            rest += chunk
        body = rest[:length]
    elif lowered.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            while b"\r\n" not in rest:
                rest += connection.recv(65536)
            size_line, rest = rest.split(b"\r\n", 1)
            size = int(size_line.split(b";")[0], 16)
            while len(rest) < size + 2:
                rest += connection.recv(65536)
            body += rest[:size]
            rest = rest[size + 2:]
            if size == 0:
                break
    else:
        body = b""
    return method, target, headers, body


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(30)
    port = listener.getsockname()[1]
    captured = {}

    def serve():
        try:
            connection, _ = listener.accept()
        except OSError as error:
            captured["error"] = str(error)
            return
        with connection:
            connection.settimeout(30)
            try:
                method, target, headers, body = read_request(connection)
                captured.update(method=method, target=target, headers=headers,
                                body=base64.b64encode(body).decode("ascii"))
            except Exception as error:  # reported in the output, never a hang
                captured["error"] = repr(error)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    thread = threading.Thread(target=serve)
    thread.start()
    line = sys.argv[2]
    curl = '"$CAPTURE_CURL" --proxy http://127.0.0.1:%d ' % port
    if line.startswith("curl "):
        line = curl + line[len("curl "):]
    elif line.startswith("printf ") and " | curl " in line:
        line = line.replace(" | curl ", " | " + curl, 1)
    else:
        raise SystemExit("the command line must start with `curl ` or `printf … | curl `")
    folder = tempfile.mkdtemp()
    try:
        run = subprocess.run(["bash", "-c", line], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, timeout=60, cwd=folder,
                             env=dict(os.environ, CAPTURE_CURL=sys.argv[1]))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if "method" not in captured and "error" not in captured:
        listener.close()
    thread.join(60)
    captured["status"] = run.returncode
    captured["stderr"] = run.stderr.decode("utf-8", "replace")
    json.dump(captured, sys.stdout)


main()
