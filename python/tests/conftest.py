"""Shared fixtures for the tonearm package's own tests. They run against the installed wheel (see
scripts/test-python-package.sh), with pytester running the plugin in fresh pytest processes."""

from __future__ import annotations

import json
import re
import ssl
import subprocess
import threading
import urllib.parse
from pathlib import Path
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

pytest_plugins = ["pytester"]


class _LocalServer:
    """A `ThreadingHTTPServer` on 127.0.0.1 port 0 answering with `handler` on a thread of its own,
    over TLS when given a context: what both test upstreams share."""

    def _serve(self, handler: type[BaseHTTPRequestHandler], context: ssl.SSLContext | None = None) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        if context is not None:
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stops answering and closes the port: nothing listens there afterwards. Idempotent."""
        if not self._thread.is_alive():
            return
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


class Upstream(_LocalServer):
    """A tiny HTTP server on 127.0.0.1 port 0 standing in for a real API: it answers every GET with
    JSON naming the path, and counts the requests it served."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                upstream.requests.append(self.path)
                body = json.dumps({"path": self.path, "served": len(upstream.requests)}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_arguments) -> None:
                pass

        self._serve(Handler)
        #: The host as `tonearm serve --host` and `Server.base_url` take it.
        self.host = f"http://127.0.0.1:{self.port}"


def make_certificates(folder: Path, host: str) -> tuple[Path, Path, Path]:
    """A throwaway CA and a leaf for `host` it signs, made with the openssl command: (CA certificate,
    leaf certificate, leaf key), PEM files in `folder`."""
    def openssl(*arguments: str) -> None:
        result = subprocess.run(["openssl", *arguments], cwd=folder, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"openssl {' '.join(arguments)} failed: {result.stderr}")

    curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    openssl("req", "-x509", *curve, "-keyout", "ca-key.pem", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=throwaway test upstream CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    openssl("req", *curve, "-keyout", "leaf-key.pem", "-out", "leaf.csr", "-subj", f"/CN={host}")
    (folder / "leaf.ext").write_text(f"subjectAltName=DNS:{host}\nbasicConstraints=critical,CA:FALSE\n"
                                     "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
            "-out", "leaf.pem", "-days", "2", "-extfile", "leaf.ext")
    return folder / "ca.pem", folder / "leaf.pem", folder / "leaf-key.pem"


class HTTPSUpstream(_LocalServer):
    """An HTTPS server on 127.0.0.1 port 0 answering for `host` with a certificate from a throwaway CA
    (`ca`): it answers every GET with JSON naming the path and the city asked for, and keeps each
    request's path and headers."""

    def __init__(self, folder: Path, host: str = "api.example.test") -> None:
        self.host = host
        self.ca, certificate, key = make_certificates(folder, host)
        self.requests: list[tuple[str, dict]] = []
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                upstream.requests.append((self.path, {name.lower(): value for name, value in self.headers.items()}))
                query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                body = json.dumps({"path": urllib.parse.urlsplit(self.path).path,
                                   "city": query.get("city", [None])[0],
                                   "served": len(upstream.requests)}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_arguments) -> None:
                pass

        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(certificate, key)
        self._serve(Handler, context)
        #: `--tonearm-connect-to`'s value sending the host's port 443 here.
        self.connect_to = f"{host}:443:127.0.0.1:{self.port}"


@pytest.fixture
def https_upstream(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HTTPSUpstream]:
    server = HTTPSUpstream(tmp_path_factory.mktemp("https-upstream"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    server = Upstream()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def readme_python_examples() -> list[str]:
    """The ```python blocks of README's "From other languages" section, in order: the tests run them as
    they are, so README cannot drift from what works."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## From other languages\n(.*?)(?=^## )", readme, re.S | re.M)
    assert section, "README.md has no '## From other languages' section"
    blocks = re.findall(r"```python\n(.*?)```", section.group(1), re.S)
    assert blocks, "README's 'From other languages' has no python block"
    return blocks
