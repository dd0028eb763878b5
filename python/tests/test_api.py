"""`tonearm.serve` and the shipped binary, against a local upstream on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

import tonearm


def get(url: str, accept: str = "application/json") -> tuple[int, dict, str]:
    """Status, headers and body text of a GET, 4xx and 5xx included."""
    request = urllib.request.Request(url, headers={"Accept": accept})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def test_the_installed_package_is_under_test():
    # The tests run against the wheel installed in the environment, never python/tonearm in the clone.
    assert "site-packages" in tonearm.__file__, tonearm.__file__


def test_version_is_the_binarys():
    result = subprocess.run([tonearm.find_binary(), "--version"], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == tonearm.__version__


def test_demo_runs():
    result = subprocess.run([tonearm.find_binary(), "demo"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_python_dash_m_runs_the_binary(tmp_path):
    result = subprocess.run([sys.executable, "-m", "tonearm", "--version"], capture_output=True, text=True,
                            cwd=tmp_path, check=True)
    assert result.stdout.strip() == tonearm.__version__


def test_records_then_replays_with_the_upstream_gone(tmp_path, upstream):
    cassette = tmp_path / "users.json"
    with tonearm.serve(cassette=cassette, mode="missing", hosts=[upstream.host]) as server:
        assert server.url == f"http://127.0.0.1:{server.port}" and server.port > 0
        status, _, body = get(server.base_url(upstream.host) + "/v1/users?page=1")
        assert status == 200 and json.loads(body)["path"] == "/v1/users?page=1"
        assert [entry["source"] for entry in server.journal()] == ["network"]
    recorded = json.loads(cassette.read_text())
    assert [track["request"]["url"] for track in recorded["tracks"]] == [f"{upstream.host}/v1/users?page=1"]

    upstream.stop()
    with tonearm.serve(cassette=cassette, hosts=[upstream.host]) as server:
        status, _, body = get(server.base_url(upstream.host) + "/v1/users?page=1")
        assert status == 200 and json.loads(body) == {"path": "/v1/users?page=1", "served": 1}
        assert [entry["source"] for entry in server.journal()] == ["track"]
    assert upstream.requests == ["/v1/users?page=1"]


def test_a_miss_is_answered_404_with_the_report_and_listed(tmp_path):
    with tonearm.serve(cassette=tmp_path / "empty.json") as server:
        status, headers, _ = get(server.base_url("api.example.com") + "/v1/users?page=2")
        assert status == 404 and headers["Tonearm-Miss"] == "not-recorded"
        assert [miss["url"] for miss in server.misses()] == ["https://api.example.com/v1/users?page=2"]
        assert "No match for GET https://api.example.com/v1/users?page=2" in server.miss_report()
        assert server.health()["misses"] == 1


def test_the_inspector_url_opens_the_page_and_lists_the_miss(tmp_path):
    with tonearm.serve(cassette=tmp_path / "empty.json") as server:
        assert server.inspector_url is not None and server.inspector_url.startswith(server.url + "/__tonearm/inspector/")
        get(server.base_url("api.example.com") + "/v1/users?page=2")
        status, headers, page = get(server.inspector_url, accept="text/html")
        assert status == 200 and '<script type="module" src="./app.js">' in page
        assert headers["Content-Security-Policy"].startswith("default-src 'self'")
        status, _, body = get(server.inspector_url + "api/misses")
        assert status == 200 and [miss["url"] for miss in json.loads(body)] == ["https://api.example.com/v1/users?page=2"]
        status, _, _ = get(server.url + "/__tonearm/inspector/")
        assert status == 401


def test_stubs_answer_until_stopped(tmp_path):
    with tonearm.serve() as server:
        server.stubs({"name": "flags", "path": "^/v1/flags$", "json": {"dark": True}})
        status, _, body = get(server.url + "/v1/flags")
        assert status == 200 and json.loads(body) == {"dark": True}
        assert server.journal()[-1]["source"] == "stub"


def test_each_server_gets_its_own_port():
    with tonearm.serve() as first, tonearm.serve() as second:
        assert first.port != second.port


def test_base_url_keeps_the_host_and_port_as_the_first_path_component():
    with tonearm.serve() as server:
        assert server.base_url("api.example.com") == f"{server.url}/api.example.com"
        assert server.base_url("http://127.0.0.1:9000") == f"{server.url}/127.0.0.1:9000"
        with pytest.raises(tonearm.TonearmError, match="not a host"):
            server.base_url("https://api.example.com/v1")


def test_stop_saves_and_reports_exit_status(tmp_path):
    server = tonearm.serve(cassette=tmp_path / "c.json", mode="missing")
    assert server.running
    assert server.stop() == 0
    assert not server.running
    assert server.stop() == 0  # stopping twice is harmless


def test_bad_arguments_fail_with_the_servers_message():
    with pytest.raises(tonearm.TonearmError, match="exited with status 64 before listening: Error: The value .not-a-number. is invalid for .--miss-status"):
        tonearm.serve(arguments=["--miss-status", "not-a-number"])
    with pytest.raises(tonearm.TonearmError, match="mode 'record' is not one of replay, missing"):
        tonearm.serve(mode="record")
    with pytest.raises(tonearm.TonearmError, match="must be a list"):
        tonearm.serve(hosts="api.example.com")


def test_a_missing_binary_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("TONEARM_BINARY", str(tmp_path / "nowhere"))
    with pytest.raises(tonearm.TonearmError, match="TONEARM_BINARY=.*nowhere is not an executable"):
        tonearm.serve()


def test_the_readme_api_example_replays_and_shows_what_answered(tmp_path, readme_python_examples):
    example = next((block for block in readme_python_examples if "tonearm.serve(" in block), None)
    assert example, "README's 'From other languages' has no tonearm.serve example"
    (tmp_path / "users.json").write_text(json.dumps({"formatVersion": 1, "tracks": [{
        "request": {"method": "GET", "url": "https://api.example.com/v1/users"},
        "response": {"status": 200, "headers": [["Content-Type", "application/json"]],
                     "body": {"json": [{"id": 1, "name": "Ada"}]}}}]}))
    (tmp_path / "example.py").write_text(example)
    result = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["[{'id': 1, 'name': 'Ada'}]", "['track']"]


def test_a_server_never_stopped_does_not_outlive_the_interpreter(tmp_path):
    script = "import tonearm\nserver = tonearm.serve()\nprint(server.pid, flush=True)\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    pid = int(result.stdout.strip())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    pytest.fail(f"tonearm serve (pid {pid}) still runs after its interpreter exited")
