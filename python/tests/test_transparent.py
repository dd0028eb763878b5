"""Transparent mode: a small project written without Tonearm in mind (a client module calling
`https://api.example.test` with requests, httpx, urllib.request, urllib3 and aiohttp; tests that mention
Tonearm only in the marker) records against a local HTTPS upstream standing in for the host
(`--tonearm-connect-to`), then replays with the upstream gone, also under pytest-xdist."""

from __future__ import annotations

import json

# The project's client module: the code under test, calling the API the way real code does.
WEATHER = '''
import json
import os
import ssl
import urllib.request

import aiohttp
import httpx
import requests
import urllib3

API = "https://api.example.test"


def _key():
    return {"X-Api-Key": os.environ.get("WEATHER_API_KEY", "")}


def with_requests(city):
    query = {"city": city, "token": os.environ.get("WEATHER_TOKEN", "")}
    return requests.get(f"{API}/v1/forecast", params=query, headers=_key(), timeout=10).json()


def with_httpx(city):
    return httpx.get(f"{API}/v1/forecast", params={"city": city}, headers=_key(), timeout=10).json()


def with_urllib_request(city):
    request = urllib.request.Request(f"{API}/v1/forecast?city={city}", headers=_key())
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def with_urllib3_pool_manager(city):
    answer = urllib3.PoolManager().request("GET", f"{API}/v1/forecast", fields={"city": city}, headers=_key(),
                                           timeout=10, retries=False)
    return answer.json()


def with_urllib3_proxy_manager(city):
    # urllib3 reads no environment: the proxy is given; the CA comes from SSL_CERT_FILE (OpenSSL's default paths).
    manager = urllib3.ProxyManager(os.environ["HTTPS_PROXY"])
    answer = manager.request("GET", f"{API}/v1/forecast", fields={"city": city}, headers=_key(), timeout=10,
                             retries=False)
    return answer.json()


async def _aiohttp(city, fresh_context, **session):
    # aiohttp makes its default SSL context when imported, before a test sets SSL_CERT_FILE: a context
    # made now reads it.
    tls = {"ssl": ssl.create_default_context()} if fresh_context else {}
    async with aiohttp.ClientSession(**session) as client:
        async with client.get(f"{API}/v1/forecast", params={"city": city}, headers=_key(),
                              timeout=aiohttp.ClientTimeout(total=10), **tls) as answer:
            return await answer.json()


def with_aiohttp(city, fresh_context=True, **session):
    import asyncio
    return asyncio.run(_aiohttp(city, fresh_context, **session))
'''

CONFTEST = '''
import pytest


@pytest.fixture
def vcr_config():
    return {"filter_headers": ["x-api-key"], "filter_query_parameters": ["token"], "decode_compressed_response": True}
'''

TESTS = '''
import aiohttp
import pytest
import urllib3

import weather

pytestmark = pytest.mark.tonearm(hosts=["api.example.test"])


def test_requests():
    assert weather.with_requests("Paris") == {"path": "/v1/forecast", "city": "Paris", "served": 1}


def test_httpx():
    assert weather.with_httpx("Oslo")["city"] == "Oslo"


def test_urllib_request():
    assert weather.with_urllib_request("Lima")["city"] == "Lima"


def test_urllib3_proxy_manager():
    assert weather.with_urllib3_proxy_manager("Quito")["city"] == "Quito"


def test_aiohttp_trusting_the_environment():
    assert weather.with_aiohttp("Accra", trust_env=True)["city"] == "Accra"


def test_urllib3_pool_manager_ignores_the_proxy_environment():
    # Straight to api.example.test, which resolves nowhere: never through Tonearm.
    with pytest.raises(urllib3.exceptions.HTTPError):
        weather.with_urllib3_pool_manager("Paris")


def test_aiohttp_ignores_the_proxy_environment_by_default():
    with pytest.raises(aiohttp.ClientConnectorError):
        weather.with_aiohttp("Paris")


def test_aiohttp_default_ssl_context_predates_the_ca():
    with pytest.raises(aiohttp.ClientConnectorCertificateError):
        weather.with_aiohttp("Paris", fresh_context=False, trust_env=True)
'''

CITIES = {"test_requests": "Paris", "test_httpx": "Oslo", "test_urllib_request": "Lima",
          "test_urllib3_proxy_manager": "Quito", "test_aiohttp_trusting_the_environment": "Accra"}


def write_project(pytester) -> None:
    pytester.makepyfile(weather=WEATHER, conftest=CONFTEST, test_weather=TESTS)


def test_unmodified_clients_record_then_replay_with_the_upstream_gone(pytester, https_upstream, monkeypatch):
    monkeypatch.setenv("WEATHER_API_KEY", "secret-weather-key")
    monkeypatch.setenv("WEATHER_TOKEN", "secret-token")
    write_project(pytester)

    recording = pytester.runpytest_subprocess(
        "--record-mode=once", f"--tonearm-connect-to={https_upstream.connect_to}",
        f"--tonearm-upstream-ca={https_upstream.ca}", "-W", "error::pytest.PytestUnraisableExceptionWarning")
    recording.assert_outcomes(passed=8)
    # The upstream saw each library's request once, with the key the code sent.
    assert sorted(path for path, _ in https_upstream.requests) == sorted(
        f"/v1/forecast?city={city}" + ("&token=secret-token" if city == "Paris" else "") for city in CITIES.values())
    assert {headers.get("x-api-key") for _, headers in https_upstream.requests} == {"secret-weather-key"}
    assert {headers.get("host") for _, headers in https_upstream.requests} == {"api.example.test"}
    # vcr_config's filter_headers was read (the rest named in one warning), and nothing secret was written.
    recording.stdout.fnmatch_lines(["*TonearmConfigWarning: Tonearm does not read these vcr_config settings: "
                                    "decode_compressed_response*"])
    folder = pytester.path / "cassettes" / "test_weather"
    for test, city in CITIES.items():
        text = (folder / f"{test}.json").read_text()
        [url] = [track["request"]["url"] for track in json.loads(text)["tracks"]]
        assert url.split("&token=")[0] == f"https://api.example.test/v1/forecast?city={city}", test
        assert "secret-weather-key" not in text and "secret-token" not in text
    assert sorted(path.name for path in folder.iterdir()) == sorted(f"{test}.json" for test in CITIES)

    https_upstream.stop()
    served = len(https_upstream.requests)
    pytester.runpytest_subprocess().assert_outcomes(passed=8)
    pytester.runpytest_subprocess("-p", "xdist", "-n", "2").assert_outcomes(passed=8)
    assert len(https_upstream.requests) == served


def test_a_request_the_cassette_lacks_fails_the_test_with_the_miss_report(pytester, https_upstream):
    write_project(pytester)
    pytester.runpytest_subprocess(
        "--record-mode=once", f"--tonearm-connect-to={https_upstream.connect_to}",
        f"--tonearm-upstream-ca={https_upstream.ca}", "-k", "test_requests").assert_outcomes(passed=1)
    https_upstream.stop()
    pytester.makepyfile(test_weather=TESTS.replace('with_requests("Paris")', 'with_requests("Rome")'))
    result = pytester.runpytest_subprocess("-k", "test_requests")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*Tonearm: 1 request missed the cassette */test_requests.json",
                                 "No match for GET https://api.example.test/v1/forecast?city=Rome&token=*"])


ENVIRONMENT_TESTS = '''
import os

import pytest

NAMES = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy",
         "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "CURL_CA_BUNDLE")
BEFORE = {name: os.environ.get(name) for name in NAMES}


@pytest.mark.tonearm(hosts=["api.example.test", "http://127.0.0.1:9"])
def test_1_fails_with_the_proxy_environment_set():
    proxy = os.environ["HTTPS_PROXY"]
    assert proxy.startswith("http://127.0.0.1:")
    assert {os.environ[name] for name in ("HTTP_PROXY", "http_proxy", "https_proxy")} == {proxy}
    # The corporate entries stay; those that would keep the marked hosts off the proxy go; loopback
    # names other than the marked ones are added.
    for name in ("NO_PROXY", "no_proxy"):
        assert os.environ[name].split(",") == ["internal.corp", "localhost", "::1"]
    bundle = os.environ["SSL_CERT_FILE"]
    assert os.environ["REQUESTS_CA_BUNDLE"] == os.environ["CURL_CA_BUNDLE"] == bundle
    assert open(bundle).read().count("BEGIN CERTIFICATE") >= 2  # Tonearm's CA and the system's
    raise AssertionError("fails on purpose, after the environment was set")


def test_2_after_it_the_environment_is_as_before():
    assert {name: os.environ.get(name) for name in NAMES} == BEFORE
    assert BEFORE["no_proxy"] == ".example.test,internal.corp,127.0.0.1" and BEFORE["HTTP_PROXY"] is None
'''


def test_the_environment_is_set_for_the_test_only_and_put_back_after_a_failure(pytester, monkeypatch):
    for name in ("HTTP_PROXY", "http_proxy", "NO_PROXY", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("https_proxy", "http://proxy.corp.invalid:3128")
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.corp.invalid:3128")
    monkeypatch.setenv("no_proxy", ".example.test,internal.corp,127.0.0.1")
    pytester.makepyfile(test_environment=ENVIRONMENT_TESTS)
    for arguments in ((), ("-p", "xdist", "-n", "2", "--dist", "loadfile")):
        result = pytester.runpytest_subprocess(*arguments)
        result.assert_outcomes(passed=1, failed=1)
        result.stdout.fnmatch_lines(["*fails on purpose*"])


def test_the_fixture_and_the_marker_alone_choose_the_mode(pytester):
    pytester.makepyfile(test_modes='''
        import os
        import pytest

        @pytest.mark.tonearm(hosts=["api.example.test"])
        def test_base_url_with_the_fixture(tonearm):
            assert "HTTPS_PROXY" not in os.environ or not os.environ["HTTPS_PROXY"].startswith(tonearm.url)

        @pytest.mark.tonearm(hosts=["api.example.test"], transparent=True)
        def test_both(tonearm):
            assert os.environ["HTTPS_PROXY"] == tonearm.url

        @pytest.mark.tonearm(strategy="fifo")
        def test_no_hosts_no_proxy():
            assert not os.environ.get("HTTPS_PROXY", "").startswith("http://127.0.0.1:")
    ''')
    pytester.runpytest_subprocess().assert_outcomes(passed=3)


def test_a_host_the_marker_does_not_list_is_refused_never_proxied(pytester):
    pytester.makepyfile(test_elsewhere='''
        import pytest
        import requests

        @pytest.mark.tonearm(hosts=["api.example.test"])
        def test_elsewhere():
            # Through the test's server (not in NO_PROXY), which forwards only the marked host.
            with pytest.raises(requests.exceptions.ProxyError, match="403"):
                requests.get("https://elsewhere.example.test/v1/secrets", timeout=10)
    ''')
    result = pytester.runpytest_subprocess("--record-mode=all")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["Tonearm: 1 request refused*", "CONNECT *elsewhere.example.test*"])
