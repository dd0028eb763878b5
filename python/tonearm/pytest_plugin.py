"""The pytest plugin: a `tonearm` fixture giving each test its own `tonearm serve` and cassette.

Conventions follow pytest-recording (vcrpy): the cassette is `cassettes/<module>/<test>.json` beside the
test file, `--record-mode` says whether to record, and `@pytest.mark.tonearm(...)` configures a test,
class or module. A request the cassette cannot answer fails the test with Tonearm's miss report, and a
failing test's report carries the server's journal, and its journal as a HAR file in the test's
`tmp_path`, named in the junit report (`tonearm_har` property, and `[[ATTACHMENT|path]]` in a section
for CI systems that link attachments). Each test starts its own server on a port the
system picks, so pytest-xdist workers never share one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from ._errors import TonearmError
from ._server import STRATEGIES, Server, serve

#: pytest-recording's record modes, as Tonearm's: `none` never records, `once` records only a cassette
#: that does not exist yet, `new_episodes` records what the cassette lacks, `all` re-records everything.
RECORD_MODES = ("none", "once", "new_episodes", "all")

#: What `@pytest.mark.tonearm` accepts.
MARKER_SETTINGS = ("hosts", "strategy", "rules", "stream_pacing")

# Journal entries shown in a failing test's report; the newest are kept.
_JOURNAL_LINES_SHOWN = 100

_SERVER = pytest.StashKey[Server]()
_HAR_FOLDER = pytest.StashKey[Path]()


def tonearm_mode(record_mode: str, cassette: Path) -> str:
    """The `tonearm serve --mode` that `--record-mode=record_mode` means for `cassette`."""
    if record_mode == "none":
        return "replay"
    if record_mode == "once":
        return "replay" if cassette.exists() else "missing"
    if record_mode == "new_episodes":
        return "missing"
    if record_mode == "all":
        return "all"
    raise pytest.UsageError(f"--record-mode={record_mode}: expected one of {', '.join(RECORD_MODES)}")


def cassette_path(item: pytest.Item) -> Path:
    """`cassettes/<module>/<test>.json` beside the test's file (`<Class>.<test>` inside a class)."""
    test_file = Path(str(item.fspath))
    name = item.name
    if item.cls is not None:
        name = f"{item.cls.__name__}.{name}"
    # Parametrized ids may hold anything; keep the name one file name on every system.
    name = re.sub(r'[\\/:*?"<>|\s]', "-", name)
    return test_file.parent / "cassettes" / test_file.stem / f"{name}.json"


def marker_settings(item: pytest.Item) -> dict:
    """`@pytest.mark.tonearm` keywords from module, class and test, the closest one winning."""
    settings: dict = {}
    for mark in reversed(list(item.iter_markers("tonearm"))):
        if mark.args:
            raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.tonearm takes keywords only "
                                    f"({', '.join(MARKER_SETTINGS)}), not {mark.args!r}")
        unknown = sorted(set(mark.kwargs) - set(MARKER_SETTINGS))
        if unknown:
            raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.tonearm does not know {', '.join(unknown)}; "
                                    f"expected {', '.join(MARKER_SETTINGS)}")
        settings.update(mark.kwargs)
    strategy = settings.get("strategy")
    if strategy is not None and strategy not in STRATEGIES:
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.tonearm strategy={strategy!r}: "
                                f"expected one of {', '.join(STRATEGIES)}")
    for key in ("hosts", "rules"):
        if isinstance(settings.get(key), str):
            raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.tonearm {key} must be a list, "
                                    f"not the string {settings[key]!r}")
    return settings


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tonearm", "Tonearm HTTP record/replay")
    try:
        group.addoption("--record-mode", action="store", default="none", choices=RECORD_MODES,
                        help="none (default: replay only, as CI should), once (record a cassette that does "
                             "not exist yet), new_episodes (record what cassettes lack), all (re-record)")
    except ValueError:
        # pytest-recording defines the same option with the same meanings: both plugins share it.
        pass
    group.addoption("--tonearm-stream-pacing", action="store", default=None, metavar="PACING",
                    help="how recorded streams (Server-Sent Events, chunked bodies) replay: recorded (default), "
                         "off (at once) or a factor such as 0.5 (twice as fast); a test's marker "
                         "stream_pacing=... wins (default: $TONEARM_STREAM_PACING)")
    group.addoption("--tonearm-usage", action="store", default=None, metavar="DIR",
                    help="leave a usage record of every cassette the tests replay in DIR (each worker's own), "
                         "for `tonearm coverage --usage DIR CASSETTES` (default: $TONEARM_USAGE_DIR)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "tonearm(hosts=[...], strategy=None, rules=[...], stream_pacing=None): hosts the tonearm fixture's "
        "server may reach, its strategy (repeat, fifo, uniquePlay, strictOrder), rule files (relative to the "
        "test file) and how recorded streams replay (recorded, off, or a factor such as 0.5)",
    )


@pytest.fixture(name="tonearm")
def tonearm_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A `tonearm serve` for this test, replaying (and per `--record-mode`, recording into) its cassette.

    Point the code under test at `tonearm.base_url("api.example.com")`.
    """
    item = request.node
    settings = marker_settings(item)
    cassette = cassette_path(item)
    mode = tonearm_mode(request.config.getoption("record_mode"), cassette)
    if mode != "replay":
        cassette.parent.mkdir(parents=True, exist_ok=True)
    folder = Path(str(item.fspath)).parent
    rules = [folder / rule for rule in settings.get("rules", ())]
    usage = request.config.getoption("tonearm_usage")
    # Each server writes its own record when it stops, so parallel workers never share a file.
    arguments = ["--usage-dir", str(Path(usage).resolve())] if usage else []
    pacing = settings.get("stream_pacing", request.config.getoption("tonearm_stream_pacing"))
    server = serve(cassette=cassette, mode=mode, hosts=list(settings.get("hosts", ())),
                   strategy=settings.get("strategy"), rules=rules, stream_pacing=pacing, arguments=arguments)
    item.stash[_SERVER] = server
    item.stash[_HAR_FOLDER] = tmp_path
    try:
        yield server
    finally:
        del item.stash[_SERVER]
        server.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    server = item.stash.get(_SERVER, None)
    if server is None or report.when != "call" or report.skipped:
        return
    try:
        misses = server.misses()
        journal = server.journal()
    except TonearmError as error:
        report.sections.append(("tonearm", f"could not read the server's journal: {error}"))
        return
    # A refusal (a host the marker does not list, CONNECT) is as much a disagreement as a miss.
    refusals = [entry for entry in journal if entry.get("source") == "refused"]
    if misses or refusals:
        text = "\n\n".join(part for part in (
            _miss_text(server, misses) if misses else "", _refusal_text(refusals) if refusals else "") if part)
        if report.passed:
            # A swallowed 404 must not pass: a miss is the cassette and the code disagreeing.
            report.outcome = "failed"
            report.longrepr = text
        else:
            report.sections.append(("tonearm misses", text))
    if report.failed:
        report.sections.append(("tonearm journal", _journal_text(journal)))
        # On the item too: the junit report writes the properties of the teardown report, which pytest
        # makes from the item's.
        _add_property(item, report, "tonearm_journal", json.dumps(journal))
        folder = item.stash.get(_HAR_FOLDER, None)
        if folder is not None:
            try:
                har = folder / "tonearm-journal.har"
                har.write_text(json.dumps(server.journal_har(), indent=1), encoding="utf-8")
            except (TonearmError, OSError) as error:
                report.sections.append(("tonearm", f"could not write the journal as HAR: {error}"))
            else:
                _add_property(item, report, "tonearm_har", str(har))
                report.sections.append(("tonearm har", f"[[ATTACHMENT|{har}]]"))


def _add_property(item: pytest.Item, report: pytest.TestReport, name: str, value: str) -> None:
    report.user_properties.append((name, value))
    item.user_properties.append((name, value))


def _miss_text(server: Server, misses: list) -> str:
    count = len(misses)
    hint = {
        "replay": "the cassette is replayed only (--record-mode=none, or once with the cassette present); "
                  "run with --record-mode=new_episodes to record what it lacks",
    }.get(server.mode, f"the server ran in {server.mode} mode")
    head = (f"Tonearm: {count} request{'s' if count != 1 else ''} missed the cassette "
            f"{server.cassette}\n({hint})")
    reports = [str(miss.get("report", miss)) for miss in misses]
    return "\n\n".join([head, *reports])


def _refusal_text(refusals: list) -> str:
    count = len(refusals)
    lines = [f"Tonearm: {count} request{'s' if count != 1 else ''} refused (give the hosts to reach with "
             "@pytest.mark.tonearm(hosts=[...]))"]
    lines += [f"{entry.get('method', '?')} {entry.get('url', '?')}: {entry.get('detail', '')}" for entry in refusals]
    return "\n".join(lines)


def _journal_text(journal: list) -> str:
    if not journal:
        return "(no exchanges)"
    shown = journal[-_JOURNAL_LINES_SHOWN:]
    lines = [f"{len(journal) - len(shown)} earlier exchanges not shown"] if len(shown) < len(journal) else []
    for entry in shown:
        lines.append(" ".join(str(part) for part in (
            entry.get("method", "?"), entry.get("url", "?"), "->", entry.get("status", "?"),
            entry.get("source", "?"), _detail(entry)) if part != ""))
    return "\n".join(lines)


def _detail(entry: Any) -> str:
    detail = entry.get("detail")
    return f"({detail})" if detail else ""
