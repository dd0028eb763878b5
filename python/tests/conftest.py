"""Shared fixtures for the tonearm package's own tests. They run against the installed wheel (see
scripts/test-python-package.sh), with pytester running the plugin in fresh pytest processes."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

pytest_plugins = ["pytester"]


class Upstream:
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

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        #: The host as `tonearm serve --host` and `Server.base_url` take it.
        self.host = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stops answering and closes the port: nothing listens there afterwards. Idempotent."""
        if not self._thread.is_alive():
            return
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


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
