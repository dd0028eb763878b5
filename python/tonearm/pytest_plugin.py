"""The pytest plugin: a `tonearm` fixture giving each test its own `tonearm serve` and cassette.

Conventions follow pytest-recording (vcrpy): the cassette is `cassettes/<module>/<test>.json` beside the
test file, `--record-mode` says whether to record, and `@pytest.mark.tonearm(...)` configures a test,
class or module. A request the cassette cannot answer fails the test with Tonearm's miss report, and a
failing test's report carries the server's journal, and its journal as a HAR file in the test's
`tmp_path`, named in the junit report (`tonearm_har` property, and `[[ATTACHMENT|path]]` in a section
for CI systems that link attachments). Each test starts its own server on a port the
system picks, so pytest-xdist workers never share one.

Transparent mode: a test with the marker's `hosts` that does not ask for the `tonearm` fixture (or any
with `transparent=True`) runs with `HTTP(S)_PROXY` pointing at its server (`--intercept-https`),
`NO_PROXY` without those hosts and Tonearm's CA in `REQUESTS_CA_BUNDLE`/`SSL_CERT_FILE`/`CURL_CA_BUNDLE`,
so unmodified code records and replays; the variables are put back after the test. pytest-recording's
cassettes (`cassettes/<module>/<test>.yaml`, vcrpy's format) replay in place when no `.json` exists,
and its `vcr_config` fixture's `filter_headers`, `filter_query_parameters`, `match_on`, `record_mode`
and `allow_playback_repeats` are read (docs/testing.md, "Python: pytest").
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import warnings
from pathlib import Path
from typing import Any, Iterator, Mapping

import pytest

from . import _proxy_env, _vcr
from ._errors import TonearmError
from ._server import STRATEGIES, Server, serve

#: pytest-recording's record modes, as Tonearm's: `none` never records, `once` records only a cassette
#: that does not exist yet, `new_episodes` records what the cassette lacks, `all` and `rewrite`
#: re-record everything.
RECORD_MODES = ("none", "once", "new_episodes", "all", "rewrite")

#: What `@pytest.mark.tonearm` accepts.
MARKER_SETTINGS = ("hosts", "strategy", "rules", "stream_pacing", "transparent")


class TonearmConfigWarning(UserWarning):
    """A setting (a `vcr_config` key, a vcrpy cassette beside a recording) Tonearm reads differently
    from pytest-recording, or not at all."""

# Journal entries shown in a failing test's report; the newest are kept.
_JOURNAL_LINES_SHOWN = 100

_SERVER = pytest.StashKey[Server]()
_HAR_FOLDER = pytest.StashKey[Path]()
_WARNED = pytest.StashKey[set]()
_TRUST_BUNDLE = pytest.StashKey[Path]()
_TRANSPARENT = pytest.StashKey[bool]()


def tonearm_mode(record_mode: str, cassette: Path) -> str:
    """The `tonearm serve --mode` that `--record-mode=record_mode` means for `cassette`."""
    if record_mode == "none":
        return "replay"
    if record_mode == "once":
        return "replay" if cassette.exists() else "missing"
    if record_mode == "new_episodes":
        return "missing"
    if record_mode in ("all", "rewrite"):
        return "all"
    raise pytest.UsageError(f"--record-mode={record_mode}: expected one of {', '.join(RECORD_MODES)}")


def cassette_path(item: pytest.Item) -> Path:
    """`cassettes/<module>/<test>.json` beside the test's file (`<Class>.<test>` inside a class)."""
    test_file = Path(str(item.fspath))
    name = item.name
    test_class = getattr(item, "cls", None)  # a pytest.Function's; other items have none
    if test_class is not None:
        name = f"{test_class.__name__}.{name}"
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
    transparent = settings.get("transparent")
    if transparent is not None and not isinstance(transparent, bool):
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.tonearm transparent must be True or False, "
                                f"not {transparent!r}")
    if transparent and not settings.get("hosts"):
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.tonearm(transparent=True) needs hosts=[...]: "
                                "the hosts sent through the test's server (the others keep NO_PROXY)")
    return settings


def is_transparent(item: pytest.Item, settings: Mapping[str, Any]) -> bool:
    """Whether the test's code reaches its server through the proxy environment: `transparent=` when
    given, else when the marker lists hosts and the test does not take the `tonearm` fixture (its only
    other way to the server is `tonearm.base_url`)."""
    if not settings.get("hosts"):
        return False
    transparent = settings.get("transparent")
    if transparent is not None:
        return bool(transparent)
    return "tonearm" not in getattr(item, "fixturenames", ())


def vcr_cassette_path(item: pytest.Item) -> Path:
    """Where pytest-recording keeps the test's cassette: `cassettes/<module>/<test>.yaml`."""
    marker = item.get_closest_marker("default_cassette")
    default = str(marker.args[0]) if marker is not None and marker.args else None
    test_class = getattr(item, "cls", None)
    return _vcr.cassette_path(Path(str(item.fspath)), test_class.__name__ if test_class is not None else None,
                              item.name, default)


def _warn_once(config: pytest.Config, message: str) -> None:
    warned = config.stash.setdefault(_WARNED, set())
    if message not in warned:
        warned.add(message)
        warnings.warn(TonearmConfigWarning(message), stacklevel=2)


def _vcr_config(request: pytest.FixtureRequest) -> Mapping[str, Any]:
    """The project's `vcr_config` fixture (pytest-recording's), or nothing when there is none."""
    try:
        config = request.getfixturevalue("vcr_config")
    except pytest.FixtureLookupError:
        return {}
    if not isinstance(config, Mapping):
        raise pytest.UsageError(f"vcr_config returned {type(config).__name__}, not a dict")
    return config


def _pytest_recording_adds_record_mode(pluginmanager: pytest.PytestPluginManager) -> bool:
    """Whether pytest-recording registers `--record-mode` in this run (already, or when its entry point
    loads after this plugin's): it must then be the only one to, or its registration fails."""
    if pluginmanager.has_plugin("recording"):
        return True
    if pluginmanager.is_blocked("recording") or os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        return False
    return importlib.util.find_spec("pytest_recording") is not None


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    group = parser.getgroup("tonearm", "Tonearm HTTP record/replay")
    # pytest-recording defines the same option with the same meanings: both plugins share it.
    if not _pytest_recording_adds_record_mode(pluginmanager):
        try:
            # No default, as in pytest-recording: an unset option lets vcr_config's record_mode decide.
            group.addoption("--record-mode", action="store", default=None, choices=RECORD_MODES,
                            help="none (default: replay only, as CI should), once (record a cassette that does "
                                 "not exist yet), new_episodes (record what cassettes lack), all or rewrite "
                                 "(re-record)")
        except ValueError:
            pass
    group.addoption("--tonearm-connect-to", action="append", default=[], metavar="HOST:PORT:ADDRESS:PORT",
                    help="while recording, reach HOST:PORT at ADDRESS:PORT (tonearm serve --connect-to): a "
                         "stand-in answering for a real host name (repeatable)")
    group.addoption("--tonearm-upstream-ca", action="append", default=[], metavar="PEM",
                    help="a CA certificate trusted for upstreams besides the system's (tonearm serve "
                         "--upstream-ca; repeatable)")
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
        "tonearm(hosts=[...], strategy=None, rules=[...], stream_pacing=None, transparent=None): hosts the "
        "test's server may reach, its strategy (repeat, fifo, uniquePlay, strictOrder), rule files (relative "
        "to the test file), how recorded streams replay (recorded, off, or a factor such as 0.5), and "
        "whether the test's process reaches the server through HTTP(S)_PROXY (default: when the test does "
        "not take the tonearm fixture)",
    )


@pytest.fixture(scope="session")
def _tonearm_ca_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The CA of this session's transparent servers: made by the first, in pytest's temporary folder
    (each xdist worker its own), never in the user's home."""
    return tmp_path_factory.mktemp("tonearm-ca")


@pytest.fixture(name="tonearm")
def tonearm_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A `tonearm serve` for this test, replaying (and per `--record-mode`, recording into) its cassette.

    Point the code under test at `tonearm.base_url("api.example.com")`, or let the marker's `hosts`
    reach it through the proxy environment (transparent mode: see `is_transparent`).
    """
    item = request.node
    settings = marker_settings(item)
    transparent = item.stash.get(_TRANSPARENT, None)
    if transparent is None:
        transparent = is_transparent(item, settings)
    native = cassette_path(item)
    yaml_cassette = vcr_cassette_path(item)
    vcr_config = _vcr_config(request)
    uses_yaml = not native.exists() and yaml_cassette.exists()
    options = _vcr.serve_options(vcr_config, yaml_cassette=uses_yaml)
    if options.ignored:
        _warn_once(request.config, "Tonearm does not read these vcr_config settings: " + "; ".join(options.ignored))
    record_mode = request.config.getoption("record_mode", None) or options.record_mode or "none"
    if record_mode not in RECORD_MODES:
        raise pytest.UsageError(f"record_mode {record_mode!r}: expected one of {', '.join(RECORD_MODES)}")
    cassette = native
    if uses_yaml:
        if record_mode in ("none", "once"):
            cassette = yaml_cassette
        elif record_mode == "new_episodes":
            pytest.fail(
                f"Tonearm: {yaml_cassette} is a vcrpy cassette, which Tonearm replays but does not write, so "
                f"--record-mode=new_episodes cannot add to it. Convert it once (`tonearm convert {yaml_cassette} "
                f"{native}`: the .json is then the test's cassette and the .yaml can go), or re-record the test "
                "with --record-mode=all into the .json.", pytrace=False)
        else:
            _warn_once(request.config,
                       f"--record-mode={record_mode} records {native}, which replaces the vcrpy cassette "
                       f"{yaml_cassette} from now on (left as it was: delete it once the .json is checked in)")
    mode = tonearm_mode(record_mode, cassette)
    if mode != "replay" and options.unhonoured_filters:
        pytest.fail(f"Tonearm: vcr_config has {', '.join(options.unhonoured_filters)}, which Tonearm cannot "
                    "apply; recording would write what they filter. Use filter_headers and "
                    "filter_query_parameters, or record with pytest-recording.", pytrace=False)
    strategy = settings.get("strategy") or (options.strategy if uses_yaml else None)
    if strategy is None and uses_yaml:
        # vcrpy plays each recorded interaction once, in order, for identical requests.
        strategy = "fifo"
    if mode != "replay":
        cassette.parent.mkdir(parents=True, exist_ok=True)
    folder = Path(str(item.fspath)).parent
    rules = [folder / rule for rule in settings.get("rules", ())]
    usage = request.config.getoption("tonearm_usage")
    # Each server writes its own record when it stops, so parallel workers never share a file.
    arguments = ["--usage-dir", str(Path(usage).resolve())] if usage else []
    arguments += options.arguments
    for connection in request.config.getoption("tonearm_connect_to"):
        arguments += ["--connect-to", connection]
    for authority in request.config.getoption("tonearm_upstream_ca"):
        arguments += ["--upstream-ca", str(Path(authority).resolve())]
    if transparent:
        ca_folder = request.getfixturevalue("_tonearm_ca_folder")
        arguments += ["--intercept-https", "--ca-dir", str(ca_folder)]
    pacing = settings.get("stream_pacing", request.config.getoption("tonearm_stream_pacing"))
    server = serve(cassette=cassette, mode=mode, hosts=list(settings.get("hosts", ())),
                   strategy=strategy, rules=rules, stream_pacing=pacing, arguments=arguments)
    item.stash[_SERVER] = server
    item.stash[_HAR_FOLDER] = tmp_path
    try:
        if transparent:
            with _proxy_env.applied(_proxy_env.proxy_environment(
                    server.url, settings["hosts"], _trust_bundle(request.config, server), os.environ)):
                yield server
        else:
            yield server
    finally:
        del item.stash[_SERVER]
        server.stop()


def _trust_bundle(config: pytest.Config, server: Server) -> Path:
    """Tonearm's CA and the system's trusted certificates in one file, made once per session."""
    bundle = config.stash.get(_TRUST_BUNDLE, None)
    if bundle is None:
        ca = server.listening.get("caCertificate")
        if not ca:
            raise TonearmError(f"tonearm serve --intercept-https named no CA certificate: {server.listening}")
        bundle = _proxy_env.trust_bundle(Path(ca), Path(ca).parent)
        config.stash[_TRUST_BUNDLE] = bundle
    return bundle


@pytest.fixture(autouse=True)
def _tonearm_transparent(request: pytest.FixtureRequest) -> Iterator[None]:
    """Starts the `tonearm` fixture for a transparent test that does not ask for it: the marker alone."""
    item = request.node
    if item.get_closest_marker("tonearm") is not None and is_transparent(item, marker_settings(item)):
        item.stash[_TRANSPARENT] = True
        request.getfixturevalue("tonearm")
    yield


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
