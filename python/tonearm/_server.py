"""`tonearm serve` as a Python object: start it, talk to its control API, stop it."""

from __future__ import annotations

import collections
import json
import os
import queue
import signal
import subprocess
import threading
import urllib.error
import urllib.request
import weakref
from typing import Any, Iterable, Mapping, Sequence, Union

from ._binary import find_binary
from ._errors import TonearmError

#: Tonearm's record modes (`tonearm serve --mode`): see docs/server.md.
MODES = ("replay", "missing", "all", "passthrough")

#: Tonearm's strategies (`tonearm serve --strategy`).
STRATEGIES = ("repeat", "fifo", "uniquePlay", "strictOrder")

# Standard-error lines kept for error messages; the server's own journal and miss list keep the rest.
_KEPT_ERROR_LINES = 200

# Control calls go straight to 127.0.0.1, never through an HTTP(S)_PROXY the environment names.
_direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))

StubList = Union[Mapping[str, Any], Iterable[Mapping[str, Any]]]


class Server:
    """A running `tonearm serve` on 127.0.0.1, on the port the system chose.

    Use it as a context manager (`with tonearm.serve(...) as server:`), or call `stop()`; stopping saves
    what was recorded into the cassette.
    """

    def __init__(self, process: subprocess.Popen, listening: Mapping[str, Any],
                 errors: "collections.deque[str]", cassette: str | None, mode: str) -> None:
        self._process = process
        self._errors = errors
        self._exit_status: int | None = None
        #: The listening line `tonearm serve` printed, parsed (`event`, `url`, `port`, `pid`, `mode`).
        self.listening = dict(listening)
        #: The server's base URL, `http://127.0.0.1:PORT`.
        self.url: str = str(listening["url"])
        #: The port the system chose.
        self.port: int = int(listening["port"])
        #: The inspector page, its token in the address (the listening line's `inspectorUrl`): open it in a
        #: browser to watch the exchanges live and fix a miss in one click. `None` when the server has it off.
        self.inspector_url: str | None = listening.get("inspectorUrl")
        #: The cassette replayed and recorded into, if any.
        self.cassette = cassette
        #: The record mode the server runs in.
        self.mode = mode
        # A server never stopped (an exception before `with`, a forgotten stop()) is sent SIGTERM when this
        # object goes away or the interpreter exits, so no `tonearm serve` outlives the tests.
        self._finalizer = weakref.finalize(self, _terminate, process)

    @property
    def pid(self) -> int:
        """The server process's id."""
        return self._process.pid

    def base_url(self, host: str) -> str:
        """The URL that stands for `host` through this server: hand it to the code under test.

        `base_url("api.example.com")` is `http://127.0.0.1:PORT/api.example.com`, which stands for
        `https://api.example.com`; `base_url("http://127.0.0.1:9000")` is `…/127.0.0.1:9000`.
        """
        name = host.split("://", 1)[1] if "://" in host else host
        name = name.strip("/")
        if not name or "/" in name:
            raise TonearmError(f"base_url: {host!r} is not a host (expected api.example.com or http://host:port)")
        return f"{self.url}/{name}"

    # The control API (docs/server.md, "Control API").

    def health(self) -> dict:
        """The server's state: mode, strategy, cassette, counts of exchanges, misses and recordings."""
        return self._call("GET", "health")

    def journal(self) -> list:
        """Every exchange so far, oldest first, each saying what answered it (`source`)."""
        return self._call("GET", "journal")

    def journal_har(self) -> dict:
        """Every exchange so far as a HAR 1.2 log, redacted as recordings are (for devtools and HAR viewers)."""
        return self._call("GET", "journal.har")

    def misses(self) -> list:
        """The misses so far, each with Tonearm's report (`report`) and the nearest tracks."""
        return self._call("GET", "misses")

    def miss_report(self) -> str:
        """The misses so far as Tonearm's text report, one block per miss (empty when none)."""
        return self._call("GET", "misses", accept="text/plain")

    def stubs(self, stubs: StubList) -> Any:
        """Adds stubs in the rule-file stub schema (one mapping or a list), until the cassette changes.

        `server.stubs({"name": "flags", "path": "^/v1/flags$", "json": {"dark": True}})`
        """
        body = [stubs] if isinstance(stubs, Mapping) else list(stubs)
        return self._call("POST", "stubs", body=body)

    def reset(self) -> Any:
        """Rewinds the strategies: every track playable again."""
        return self._call("POST", "reset")

    def save(self) -> Any:
        """Writes what was recorded into the cassette now."""
        return self._call("POST", "save")

    def _call(self, method: str, endpoint: str, body: Any = None, accept: str = "application/json") -> Any:
        url = f"{self.url}/__tonearm/{endpoint}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method, headers={"Accept": accept})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with _direct.open(request, timeout=30) as response:
                payload = response.read()
        except urllib.error.HTTPError as error:
            detail = error.read().decode("utf-8", "replace")
            raise TonearmError(f"{method} {url} answered {error.code}: {detail}") from None
        except OSError as error:
            raise TonearmError(f"{method} {url} failed: {error}{self._status_note()}") from None
        if accept != "application/json":
            return payload.decode("utf-8", "replace")
        return json.loads(payload) if payload else None

    # Stopping.

    @property
    def running(self) -> bool:
        """Whether the server process is still running."""
        return self._process.poll() is None

    @property
    def errors(self) -> list:
        """The last lines the server wrote to standard error (one per miss, among others)."""
        return list(self._errors)

    def stop(self, timeout: float = 30.0, check: bool = True) -> int:
        """Stops the server as SIGTERM does (in-flight exchanges finish, the cassette is saved) and
        returns its exit status; raises `TonearmError` when it is not 0, unless `check` is false.

        A server still running after `timeout` seconds is killed, and that is an error too.
        """
        if self._exit_status is None:
            self._finalizer.detach()
            if self._process.poll() is None:
                self._process.send_signal(signal.SIGTERM)
            try:
                self._exit_status = self._process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
                self._exit_status = self._process.returncode
                if check:
                    raise TonearmError(f"tonearm serve (pid {self.pid}) did not stop within {timeout} s; killed") from None
        if check and self._exit_status != 0:
            raise TonearmError(f"tonearm serve (pid {self.pid}) exited with status {self._exit_status}{self._status_note()}")
        return self._exit_status

    def _status_note(self) -> str:
        lines = self.errors[-20:]
        return (": " + "\n".join(lines)) if lines else ""

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, exc_type, exc, traceback) -> None:
        # An error from the block matters more than one from stopping after it.
        self.stop(check=exc_type is None)

    def __repr__(self) -> str:
        return f"<tonearm.Server {self.url} mode={self.mode} cassette={self.cassette}>"


def serve(cassette: str | os.PathLike | None = None, mode: str = "replay", hosts: Sequence[str] = (), *,
          strategy: str | None = None, rules: Sequence[str | os.PathLike] = (), upstream: str | None = None,
          stream_pacing: str | float | None = None, arguments: Sequence[str] = (), binary: str | None = None,
          startup_timeout: float = 30.0) -> Server:
    """Starts `tonearm serve` on 127.0.0.1 port 0 and returns it once it listens.

    - `cassette`: the file to replay and record into (any format Tonearm reads; records .json or .har).
    - `mode`: `replay` (never reach the network), `missing` (record what the cassette lacks), `all`
      (re-record everything) or `passthrough` (proxy and journal only).
    - `hosts`: the hosts the server may reach, `api.example.com` (https) or `http://127.0.0.1:9000`.
    - `strategy`, `rules`, `upstream`: as `--strategy`, `--rules` (repeatable) and `--upstream`.
    - `stream_pacing`: how recorded streams (Server-Sent Events, chunked bodies) replay: `"recorded"`,
      `"off"`, or a factor such as `0.5` (`--stream-pacing`; default: `$TONEARM_STREAM_PACING`, else recorded).
    - `arguments`: any other `tonearm serve` flags, passed as they are.
    """
    if mode not in MODES:
        raise TonearmError(f"serve: mode {mode!r} is not one of {', '.join(MODES)}")
    if strategy is not None and strategy not in STRATEGIES:
        raise TonearmError(f"serve: strategy {strategy!r} is not one of {', '.join(STRATEGIES)}")
    if isinstance(hosts, str):
        raise TonearmError(f"serve: hosts must be a list of hosts, not the string {hosts!r}")
    command = [binary or find_binary(), "serve", "--port", "0", "--mode", mode]
    cassette_path = os.fspath(cassette) if cassette is not None else None
    if cassette_path is not None:
        command += ["--cassette", cassette_path]
    for host in hosts:
        command += ["--host", host]
    if strategy is not None:
        command += ["--strategy", strategy]
    for rule_file in rules:
        command += ["--rules", os.fspath(rule_file)]
    if upstream is not None:
        command += ["--upstream", upstream]
    if stream_pacing is not None:
        command += ["--stream-pacing", str(stream_pacing)]
    command += list(arguments)

    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
    except OSError as error:
        raise TonearmError(f"could not run {command[0]}: {error}") from None
    errors: collections.deque = collections.deque(maxlen=_KEPT_ERROR_LINES)
    lines: queue.Queue = queue.Queue()
    _drain(process.stdout, lines.put, at_end=lambda: lines.put(None))
    error_thread = _drain(process.stderr, lambda line: errors.append(line.rstrip("\n")))

    try:
        first = lines.get(timeout=startup_timeout)
    except queue.Empty:
        process.kill()
        process.wait()
        raise TonearmError(f"tonearm serve printed no listening line within {startup_timeout} s: "
                           + " ".join(command)) from None
    if first is None:
        status = process.wait()
        error_thread.join(timeout=5)
        raise TonearmError(f"tonearm serve exited with status {status} before listening: "
                           + ("\n".join(errors) or " ".join(command)))
    try:
        listening = json.loads(first)
    except ValueError:
        listening = None
    if not isinstance(listening, dict) or "url" not in listening or "port" not in listening:
        process.kill()
        process.wait()
        raise TonearmError(f"tonearm serve's first line is not the listening JSON: {first!r}")
    return Server(process, listening, errors, cassette_path, mode)


def _terminate(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def _drain(stream, deliver, at_end=lambda: None) -> threading.Thread:
    """Reads `stream` line by line on a daemon thread, handing each line to `deliver`, then calls
    `at_end`; reading to the end also keeps the server from ever blocking on a full pipe."""
    def read() -> None:
        for raw in iter(stream.readline, b""):
            deliver(raw.decode("utf-8", "replace"))
        stream.close()
        at_end()

    thread = threading.Thread(target=read, name="tonearm-serve-output", daemon=True)
    thread.start()
    return thread
