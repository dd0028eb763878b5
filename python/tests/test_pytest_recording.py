"""pytest-recording's cassettes in place: a suite records with real vcrpy through pytest-recording (in a
subprocess, against a local HTTPS upstream), then replays its YAML cassettes through the Tonearm marker
with the upstream gone; and the rules Tonearm shares with pytest-recording, compared with its own code."""

from __future__ import annotations

import json

import pytest

from tonearm import _proxy_env, _vcr

FORECAST = '''
import os

import requests

API = "https://api.example.test"


def forecast(city):
    return requests.get(f"{API}/v1/forecast", params={"city": city, "token": os.environ.get("WEATHER_TOKEN", "")},
                        headers={"X-Api-Key": os.environ.get("WEATHER_API_KEY", "")}, timeout=10).json()
'''

VCR_CONFIG = '''
import pytest


@pytest.fixture
def vcr_config():
    return {"filter_headers": ["x-api-key"], "filter_query_parameters": ["token"]}
'''

# Only while vcrpy records: api.example.test's port 443 is the local upstream (as --connect-to is for
# Tonearm), the name resolving nowhere else.
RECORDING_DNS = '''
import os
import socket

_resolve = socket.getaddrinfo
_ADDRESS, _PORT = os.environ["UPSTREAM_ADDRESS"].rsplit(":", 1)


def _getaddrinfo(host, port, *arguments, **keywords):
    if host == "api.example.test" and int(port) == 443:
        return _resolve(_ADDRESS, int(_PORT), *arguments, **keywords)
    return _resolve(host, port, *arguments, **keywords)


socket.getaddrinfo = _getaddrinfo
'''

TESTS = '''
import pytest

from forecast import forecast


@MARK
def test_paris():
    assert forecast("Paris")["city"] == "Paris"


@MARK
@pytest.mark.parametrize("city", ["Oslo", "S\\u00e3o Paulo", "Lima/Peru"])
def test_cities(city):
    assert forecast(city)["city"] == city


class TestRepeats:
    @MARK
    def test_the_same_request_twice_gets_the_answers_in_order(self):
        first, second = forecast("Accra"), forecast("Accra")
        assert second["served"] == first["served"] + 1
'''


def vcr_tests(mark: str) -> str:
    return TESTS.replace("@MARK", mark)


def test_a_pytest_recording_suite_replays_its_yaml_cassettes_through_the_marker(pytester, https_upstream,
                                                                                 monkeypatch):
    monkeypatch.setenv("WEATHER_API_KEY", "secret-weather-key")
    monkeypatch.setenv("WEATHER_TOKEN", "secret-token")
    pytester.makepyfile(forecast=FORECAST, conftest=VCR_CONFIG + RECORDING_DNS,
                        test_forecast=vcr_tests("@pytest.mark.vcr"))

    # pytest-recording records, with vcrpy patching requests, straight to the upstream.
    monkeypatch.setenv("UPSTREAM_ADDRESS", f"127.0.0.1:{https_upstream.port}")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(https_upstream.ca))
    pytester.runpytest_subprocess("-p", "recording", "--record-mode=once").assert_outcomes(passed=5)
    assert len(https_upstream.requests) == 6
    folder = pytester.path / "cassettes" / "test_forecast"
    cassettes = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert set(cassettes) == {"test_paris.yaml", "test_cities[Oslo].yaml", "test_cities[S-xe3o Paulo].yaml",
                              "test_cities[Lima-Peru].yaml",
                              "TestRepeats.test_the_same_request_twice_gets_the_answers_in_order.yaml"}
    assert not any(b"secret-" in text for text in cassettes.values())

    # Tonearm replays them in place, the code and cassettes unchanged, the marker instead of vcr's,
    # pytest-recording off and the upstream gone.
    https_upstream.stop()
    monkeypatch.delenv("UPSTREAM_ADDRESS")
    monkeypatch.delenv("REQUESTS_CA_BUNDLE")
    pytester.makepyfile(conftest=VCR_CONFIG,
                        test_forecast=vcr_tests('@pytest.mark.tonearm(hosts=["api.example.test"])'))
    for arguments in ((), ("-p", "xdist", "-n", "2")):
        result = pytester.runpytest_subprocess("-p", "no:recording", *arguments)
        result.assert_outcomes(passed=5)
        assert "TonearmConfigWarning" not in result.stdout.str()
    assert len(https_upstream.requests) == 6
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == cassettes

    # new_episodes would have to write vcrpy's YAML: the test says so instead.
    result = pytester.runpytest_subprocess("-p", "no:recording", "--record-mode=new_episodes", "-k", "paris")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*test_paris.yaml is a vcrpy cassette, which Tonearm replays but does not "
                                 "write*tonearm convert*"])
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == cassettes


def test_rewrite_of_a_yaml_cassette_records_the_json_beside_it_and_leaves_the_yaml(pytester, upstream, monkeypatch):
    monkeypatch.setenv("UPSTREAM", upstream.host)
    yaml = pytester.path / "cassettes" / "test_users" / "test_lists_users.yaml"
    yaml.parent.mkdir(parents=True)
    yaml.write_text(f"""interactions:
- request:
    body: null
    headers: {{}}
    method: GET
    uri: {upstream.host}/v1/users
  response:
    body: {{string: '{{"path": "stale"}}'}}
    headers:
      Content-Type: [application/json]
    status: {{code: 200, message: OK}}
version: 1
""")
    pytester.makepyfile(test_users="""
        import os
        import pytest
        import requests

        @pytest.mark.tonearm(hosts=[os.environ["UPSTREAM"]])
        def test_lists_users():
            assert requests.get(os.environ["UPSTREAM"] + "/v1/users").json()["path"] in ("stale", "/v1/users")
    """)
    original = yaml.read_bytes()
    pytester.runpytest_subprocess().assert_outcomes(passed=1)
    assert upstream.requests == []
    result = pytester.runpytest_subprocess("--record-mode=rewrite")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*TonearmConfigWarning: --record-mode=rewrite records *test_lists_users.json, "
                                 "which replaces the vcrpy cassette *test_lists_users.yaml*"])
    assert upstream.requests == ["/v1/users"]
    assert yaml.read_bytes() == original
    tracks = json.loads(yaml.with_suffix(".json").read_text())["tracks"]
    assert [track["request"]["url"] for track in tracks] == [f"{upstream.host}/v1/users"]


def test_filters_tonearm_cannot_apply_stop_a_recording_rather_than_write_what_they_filter(pytester):
    pytester.makepyfile(conftest="""
        import pytest

        @pytest.fixture
        def vcr_config():
            return {"filter_post_data_parameters": ["password"]}
    """, test_login="""
        import pytest

        @pytest.mark.tonearm(hosts=["api.example.test"])
        def test_login():
            pass
    """)
    result = pytester.runpytest_subprocess("--record-mode=once")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*vcr_config has filter_post_data_parameters, which Tonearm cannot apply*"])
    assert not (pytester.path / "cassettes" / "test_login" / "test_login.json").exists()
    # Replaying writes nothing: it runs, naming the setting it does not read.
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*does not read these vcr_config settings: filter_post_data_parameters*"])


@pytest.mark.parametrize(("class_name", "test_name"), [
    (None, "test_plain"),
    ("TestCity", "test_method"),
    (None, "test_cities[S\\xe3o Paulo]"),
    (None, 'test_odd[a/b:c*d?e"f<g>h|i%j\'k\\l]'),
    (None, "test_long[" + "x" * 300 + "]"),
])
def test_cassette_names_are_pytest_recordings(class_name, test_name):
    from pytest_recording.plugin import get_default_cassette_name
    from pytest_recording._vcr import MAX_FILENAME_LEN

    expected = get_default_cassette_name(type(class_name, (), {}) if class_name else None, test_name)
    suffix = ".yaml"
    if len(expected) + len(suffix) > MAX_FILENAME_LEN:
        import hashlib
        digest = hashlib.md5(expected.encode()).hexdigest()
        expected = f"{expected[: MAX_FILENAME_LEN - len(suffix) - len(digest) - 3]}...{digest}"
    assert _vcr.cassette_name(class_name, test_name) == expected


@pytest.mark.parametrize(("match_on", "attributes", "ignored"), [
    (_vcr.VCRPY_DEFAULT_MATCH_ON, "url,method,query", []),
    (["method", "uri"], "url,query,method", []),
    (["method", "path"], "path,method", []),
    (["method", "host"], "url,method", ["match_on host without path"]),
    (["method", "body", "headers"], "method,body", ["match_on headers"]),
])
def test_match_on_becomes_tonearms_attributes(match_on, attributes, ignored):
    found: list[str] = []
    assert _vcr.match_attributes(match_on, found) == attributes
    assert [note.split(" (")[0] for note in found] == ignored


@pytest.mark.parametrize(("current", "hosts", "expected"), [
    (None, ["api.example.com"], "localhost,127.0.0.1,::1"),
    ("*", ["api.example.com"], "localhost,127.0.0.1,::1"),
    ("example.com,.corp,10.0.0.0/8", ["api.example.com"], ".corp,10.0.0.0/8,localhost,127.0.0.1,::1"),
    ("*.example.com,api.example.com:443", ["https://api.example.com:8443"], "localhost,127.0.0.1,::1"),
    ("10.0.0.0/8,localhost", ["http://10.1.2.3:9000"], "localhost,127.0.0.1,::1"),
    ("127.0.0.1,localhost", ["http://127.0.0.1:9000"], "localhost,::1"),
])
def test_no_proxy_loses_what_would_keep_the_hosts_off_the_proxy(current, hosts, expected):
    assert _proxy_env.no_proxy(current, hosts) == expected
