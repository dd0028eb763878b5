"""The pytest plugin, run by pytester in fresh pytest processes (so it loads from its entry point, as in
a user's project), against a local upstream on 127.0.0.1."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

USERS_TEST = """
import os
import pytest
import requests

UPSTREAM = os.environ["UPSTREAM"]

@pytest.mark.tonearm(hosts=[UPSTREAM])
def test_lists_users(tonearm):
    answer = requests.get(tonearm.base_url(UPSTREAM) + os.environ.get("USERS_PATH", "/v1/users"))
    assert answer.status_code == int(os.environ.get("EXPECTED_STATUS", "200"))
"""

# A cassette of api.example.com, written the way a recording is.
USERS_CASSETTE = {
    "formatVersion": 1,
    "tracks": [{
        "request": {"method": "GET", "url": "https://api.example.com/v1/users"},
        "response": {"status": 200, "headers": [["Content-Type", "application/json"]],
                     "body": {"json": [{"id": 1, "name": "Ada"}]}},
    }],
}


def write_cassette(folder: Path, module: str, test: str, cassette: dict = USERS_CASSETTE) -> Path:
    path = folder / "cassettes" / module / f"{test}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(cassette))
    return path


def test_records_once_then_replays_with_the_upstream_gone(pytester, upstream, monkeypatch):
    monkeypatch.setenv("UPSTREAM", upstream.host)
    pytester.makepyfile(test_users=USERS_TEST)

    recording = pytester.runpytest_subprocess("--record-mode=once")
    recording.assert_outcomes(passed=1)
    cassette = pytester.path / "cassettes" / "test_users" / "test_lists_users.json"
    assert [track["request"]["url"] for track in json.loads(cassette.read_text())["tracks"]] == [
        f"{upstream.host}/v1/users"]
    assert upstream.requests == ["/v1/users"]

    upstream.stop()
    replaying = pytester.runpytest_subprocess()  # --record-mode=none, the default
    replaying.assert_outcomes(passed=1)
    assert upstream.requests == ["/v1/users"]


def test_a_miss_fails_the_test_with_tonearms_report_even_when_the_404_is_swallowed(pytester, monkeypatch):
    monkeypatch.setenv("UPSTREAM", "api.example.com")
    monkeypatch.setenv("USERS_PATH", "/v1/users?page=2")
    monkeypatch.setenv("EXPECTED_STATUS", "404")
    pytester.makepyfile(test_users=USERS_TEST)
    write_cassette(pytester.path, "test_users", "test_lists_users")

    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*Tonearm: 1 request missed the cassette */cassettes/test_users/test_lists_users.json",
        "*run with --record-mode=new_episodes to record what it lacks*",
        "No match for GET https://api.example.com/v1/users?page=2",
        "*query parameter*",
        "*tonearm journal*",
        "GET https://api.example.com/v1/users?page=2 -> 404 miss *",
    ])


def test_a_request_to_a_host_not_in_the_marker_fails_the_test_while_recording(pytester):
    pytester.makepyfile(test_hosts="""
        import requests

        def test_unlisted_host(tonearm):
            assert requests.get(tonearm.base_url("api.example.com") + "/v1/users").status_code == 403
    """)
    result = pytester.runpytest_subprocess("--record-mode=new_episodes")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "Tonearm: 1 request refused (give the hosts to reach with @pytest.mark.tonearm(hosts=[...]))",
        "GET /api.example.com/v1/users: api.example.com is not an allowed host*",
    ])


def test_a_failing_test_carries_the_journal_and_its_misses(pytester, monkeypatch):
    pytester.makepyfile(test_checkout="""
        import pytest
        import requests

        @pytest.mark.tonearm(hosts=["api.example.com"])
        def test_checkout(tonearm):
            base = tonearm.base_url("api.example.com")
            assert requests.get(base + "/v1/users").json()[0]["name"] == "Ada"
            assert requests.get(base + "/v1/cart").status_code == 200
    """)
    write_cassette(pytester.path, "test_checkout", "test_checkout")

    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*assert 404 == 200*",
        "*tonearm misses*",
        "No match for GET https://api.example.com/v1/cart",
        "*tonearm journal*",
        "GET https://api.example.com/v1/users -> 200 track*",
        "GET https://api.example.com/v1/cart -> 404 miss *",
    ])


def test_a_failing_test_leaves_its_journal_as_har_named_in_the_junit_report(pytester):
    pytester.makepyfile(test_checkout="""
        import pytest
        import requests

        @pytest.mark.tonearm(hosts=["api.example.com"])
        def test_checkout(tonearm):
            base = tonearm.base_url("api.example.com")
            assert requests.get(base + "/v1/users", headers={"Authorization": "Bearer secret-token"}).status_code == 200
            assert requests.get(base + "/v1/cart").status_code == 200
    """)
    write_cassette(pytester.path, "test_checkout", "test_checkout")

    result = pytester.runpytest_subprocess("--junitxml=junit.xml")
    result.assert_outcomes(failed=1)
    import xml.etree.ElementTree as ElementTree
    properties = {prop.get("name"): prop.get("value")
                  for prop in ElementTree.parse(pytester.path / "junit.xml").iter("property")}
    har_path = Path(properties["tonearm_har"])
    har = json.loads(har_path.read_text(encoding="utf-8"))
    urls = [entry["request"]["url"] for entry in har["log"]["entries"]]
    assert urls == ["https://api.example.com/v1/users", "https://api.example.com/v1/cart"]
    assert "secret-token" not in har_path.read_text(encoding="utf-8")
    result.stdout.fnmatch_lines(["*tonearm har*", f"[[ATTACHMENT|{har_path}]]"])


def test_a_passing_test_shows_nothing_of_tonearm(pytester):
    pytester.makepyfile(test_users="""
        import requests

        def test_lists_users(tonearm):
            assert requests.get(tonearm.base_url("api.example.com") + "/v1/users").status_code == 200
    """)
    write_cassette(pytester.path, "test_users", "test_lists_users")
    result = pytester.runpytest_subprocess("-rA")
    result.assert_outcomes(passed=1)
    assert "tonearm journal" not in result.stdout.str()


@pytest.mark.parametrize(("record_mode", "cassette_exists", "expected"), [
    ("none", True, "replay"),
    ("none", False, "replay"),
    ("once", False, "missing"),
    ("once", True, "replay"),
    ("new_episodes", True, "missing"),
    ("all", True, "all"),
])
def test_record_modes_map_onto_tonearms(pytester, monkeypatch, record_mode, cassette_exists, expected):
    monkeypatch.setenv("EXPECTED_MODE", expected)
    pytester.makepyfile(test_modes="""
        import os

        def test_mode(tonearm):
            assert tonearm.mode == os.environ["EXPECTED_MODE"]
            assert tonearm.health()["mode"] == os.environ["EXPECTED_MODE"]
    """)
    if cassette_exists:
        write_cassette(pytester.path, "test_modes", "test_mode")
    args = [] if record_mode == "none" else [f"--record-mode={record_mode}"]
    pytester.runpytest_subprocess(*args).assert_outcomes(passed=1)


def test_all_rerecords_the_cassette(pytester, upstream, monkeypatch):
    monkeypatch.setenv("UPSTREAM", upstream.host)
    pytester.makepyfile(test_users=USERS_TEST)
    cassette = write_cassette(pytester.path, "test_users", "test_lists_users", {"formatVersion": 1, "tracks": [{
        "request": {"method": "GET", "url": f"{upstream.host}/v1/users"},
        "response": {"status": 200, "body": {"text": "stale"}}}]})

    pytester.runpytest_subprocess("--record-mode=all").assert_outcomes(passed=1)
    tracks = json.loads(cassette.read_text())["tracks"]
    assert len(tracks) == 1 and "stale" not in json.dumps(tracks)
    assert upstream.requests == ["/v1/users"]


def test_the_marker_sets_strategy_and_rules_relative_to_the_test_file(pytester):
    (pytester.path / "rules").mkdir()
    (pytester.path / "rules" / "flags.json").write_text(json.dumps(
        {"rules": [{"name": "flags", "path": "^/v1/flags$", "json": {"dark": True}}]}))
    pytester.makepyfile(test_marker="""
        import pytest
        import requests

        pytestmark = pytest.mark.tonearm(strategy="fifo")

        @pytest.mark.tonearm(strategy="uniquePlay", rules=["rules/flags.json"])
        def test_marked(tonearm):
            assert tonearm.health()["strategy"] == "uniquePlay"
            assert requests.get(tonearm.url + "/v1/flags").json() == {"dark": True}

        def test_module_marker(tonearm):
            assert tonearm.health()["strategy"] == "fifo"
    """)
    pytester.runpytest_subprocess().assert_outcomes(passed=2)


def test_an_unknown_marker_setting_is_named(pytester):
    pytester.makepyfile(test_typo="""
        import pytest

        @pytest.mark.tonearm(host=["api.example.com"])
        def test_typo(tonearm):
            pass
    """)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*@pytest.mark.tonearm does not know host; expected hosts, strategy, rules*"])


def test_xdist_workers_each_get_their_own_servers(pytester, upstream, monkeypatch):
    monkeypatch.setenv("UPSTREAM", upstream.host)
    pytester.makepyfile(test_parallel="""
        import os
        import pytest
        import requests

        UPSTREAM = os.environ["UPSTREAM"]

        @pytest.mark.parametrize("page", range(6))
        @pytest.mark.tonearm(hosts=[UPSTREAM])
        def test_page(tonearm, page):
            answer = requests.get(tonearm.base_url(UPSTREAM) + f"/v1/users?page={page}")
            assert answer.json()["path"] == f"/v1/users?page={page}"
            with open(f"page-{page}.seen", "w") as seen:
                seen.write(f"{os.environ['PYTEST_XDIST_WORKER']} {tonearm.port}")
    """)
    pytester.runpytest_subprocess("-p", "xdist", "-n", "2", "--record-mode=once").assert_outcomes(passed=6)
    seen = [path.read_text().split() for path in pytester.path.glob("page-*.seen")]
    assert {worker for worker, _ in seen} == {"gw0", "gw1"}
    assert len({port for _, port in seen}) == 6
    assert len(list((pytester.path / "cassettes" / "test_parallel").glob("test_page*.json"))) == 6

    upstream.stop()
    pytester.runpytest_subprocess("-p", "xdist", "-n", "2").assert_outcomes(passed=6)


def test_usage_records_from_xdist_workers_show_the_unused_track_and_cassette(pytester, monkeypatch):
    from tonearm import find_binary
    import subprocess

    monkeypatch.setenv("UPSTREAM", "api.example.com")
    pytester.makepyfile(test_users=USERS_TEST)
    two_tracks = json.loads(json.dumps(USERS_CASSETTE))
    two_tracks["tracks"].append({"request": {"method": "GET", "url": "https://api.example.com/v1/gone"},
                                 "response": {"status": 410}})
    write_cassette(pytester.path, "test_users", "test_lists_users", two_tracks)
    write_cassette(pytester.path, "test_deleted", "test_nothing_loads_me")
    usage = pytester.path / "usage"
    pytester.runpytest_subprocess("-p", "xdist", "-n", "2", f"--tonearm-usage={usage}").assert_outcomes(passed=1)
    assert len(list(usage.glob("*.tonearm-usage.json"))) == 1

    coverage = subprocess.run([find_binary(), "coverage", "--usage", str(usage), "cassettes", "--fail-on-unused"],
                              cwd=pytester.path, capture_output=True, text=True)
    assert coverage.returncode == 1, coverage.stderr
    assert "cassettes/test_deleted/test_nothing_loads_me.json: never loaded by the run" in coverage.stdout
    assert ("cassettes/test_users/test_lists_users.json: 1 of 2 track(s) never replayed\n"
            "  track #1 GET https://api.example.com/v1/gone → 410") in coverage.stdout


def test_the_readme_example_replays_its_cassette_and_fails_on_a_miss(pytester, readme_python_examples):
    example = readme_python_examples[0]
    module = re.search(r"^# (test_\w+)\.py", example, re.M)
    assert module, "the README example starts with a '# test_NAME.py' comment naming its file"
    test = re.search(r"^def (test_\w+)\(tonearm\)", example, re.M)
    assert test, "the README example defines a test taking the tonearm fixture"
    pytester.makepyfile(**{module.group(1): example})

    pytester.runpytest_subprocess().assert_outcomes(failed=1)  # no cassette yet: replay misses
    write_cassette(pytester.path, module.group(1), test.group(1))
    pytester.runpytest_subprocess().assert_outcomes(passed=1)


STREAM_CASSETTE = {
    "formatVersion": 1,
    "tracks": [{
        "request": {"method": "GET", "url": "https://api.example.com/v1/stream"},
        "response": {"status": 200, "headers": [["Content-Type", "text/event-stream"]],
                     "events": [{"at": 0, "data": "one"}, {"at": 500, "data": "two"}]},
    }],
}


def test_recorded_streams_replay_paced_and_the_marker_turns_pacing_off(pytester):
    write_cassette(pytester.path, "test_streams", "test_paced", STREAM_CASSETTE)
    slow = json.loads(json.dumps(STREAM_CASSETTE))
    slow["tracks"][0]["response"]["events"][1]["at"] = 600000
    write_cassette(pytester.path, "test_streams", "test_off", slow)
    pytester.makepyfile(test_streams="""
        import time
        import pytest
        import requests

        @pytest.mark.tonearm(hosts=["api.example.com"])
        def test_paced(tonearm):
            started = time.monotonic()
            answer = requests.get(tonearm.base_url("api.example.com") + "/v1/stream", stream=True, timeout=30)
            events = [line for line in answer.iter_lines() if line]
            assert events == [b"data: one", b"data: two"]
            # The second event was recorded 500 ms after the head: it never comes sooner.
            assert time.monotonic() - started >= 0.5

        @pytest.mark.tonearm(hosts=["api.example.com"], stream_pacing="off")
        def test_off(tonearm):
            # Recorded ten minutes apart; with pacing off the whole answer comes at once.
            answer = requests.get(tonearm.base_url("api.example.com") + "/v1/stream", timeout=30)
            assert answer.text == "data: one\\n\\ndata: two\\n\\n"
    """)
    pytester.runpytest_subprocess().assert_outcomes(passed=2)
