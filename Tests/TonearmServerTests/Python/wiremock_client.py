"""Drives a Tonearm server with the PyPI `wiremock` admin client, as a WireMock user would.

Usage: python wiremock_client.py http://127.0.0.1:PORT
Run by WireMockPythonClientTests (Swift) against a server started with a root directory; exits 0 when
every step behaved as it does against WireMock, else prints what differed and exits 1.
"""
import sys

import requests
from wiremock.constants import Config
from wiremock.exceptions import ApiException
from wiremock.resources.mappings import Mapping, MappingRequest, MappingResponse, HttpMethods
from wiremock.resources.mappings.resource import Mappings
from wiremock.resources.near_misses import NearMissMatchPatternRequest, NearMissMatchRequest
from wiremock.resources.near_misses.resource import NearMisses
from wiremock.resources.requests.resource import Requests
from wiremock.resources.scenarios.resource import Scenarios
from wiremock.resources.settings import GlobalSetting
from wiremock.resources.settings.resource import GlobalSettings

base = sys.argv[1].rstrip("/")
Config.base_url = base + "/__admin"
Config.timeout = 30


def check(condition, message):
    if not condition:
        print("FAILED: " + message)
        sys.exit(1)


# A clean slate: mappings back to the root directory's, journal empty.
Mappings.reset_mappings()
Requests.reset_request_journal()
Scenarios.reset_all_scenarios()
loaded = Mappings.retrieve_all_mappings()
check(loaded.meta.total == 1, f"the root directory's one mapping is loaded, got {loaded.meta.total}")

# Mappings: create (201, echoed with an id), then call them with a plain HTTP client.
hello = Mappings.create_mapping(Mapping(
    priority=1,
    request=MappingRequest(method=HttpMethods.GET, url="/hello?lang=en"),
    response=MappingResponse(status=200, body="hi", headers={"Content-Type": "text/plain"}),
    persistent=False,
))
check(hello.id, "create_mapping returns the mapping with its id")
users = Mappings.create_mapping(Mapping(
    request=MappingRequest(method=HttpMethods.POST, url_path_pattern="/users/[0-9]+",
                           headers={"X-Team": {"equalTo": "blue"}}),
    response=MappingResponse(status=201, json_body={"created": True}),
    metadata={"owner": "signup"},
))

response = requests.get(base + "/hello?lang=en")
check(response.status_code == 200 and response.text == "hi", f"GET /hello answers hi, got {response.status_code} {response.text!r}")
response = requests.post(base + "/users/42", headers={"X-Team": "blue"}, data="{}")
check(response.status_code == 201 and response.json() == {"created": True}, f"POST /users/42 answers 201, got {response.status_code}")
response = requests.get(base + "/static/hello.txt")
check(response.status_code == 200 and response.text.strip() == "from __files", f"the root directory's mapping serves its body file, got {response.text!r}")
missed = requests.get(base + "/hello?lang=fr")
check(missed.status_code == 404, f"an unmatched request is answered 404, got {missed.status_code}")

# Reading mappings back: one, all (newest first, limit/offset), update, delete.
fetched = Mappings.retrieve_mapping(hello.id)
check(fetched.request.url == "/hello?lang=en", "retrieve_mapping returns the mapping")
page = Mappings.retrieve_all_mappings(parameters={"limit": 1, "offset": 0})
check(len(page.mappings) == 1 and page.meta.total == 3, f"limit 1 of 3, got {len(page.mappings)} of {page.meta.total}")
check(page.mappings[0].id == users.id, "the newest mapping is listed first")

hello.response = MappingResponse(status=200, body="hello again")
updated = Mappings.update_mapping(hello)
check(updated.response.body == "hello again", "update_mapping echoes the new response")
check(requests.get(base + "/hello?lang=en").text == "hello again", "the updated mapping answers")

# The journal: newest first, one by id, counting and finding with request patterns.
journal = Requests.get_all_received_requests()
check(journal.meta.total == 5, f"five requests journaled, got {journal.meta.total}")
check(journal.requests[0].request.url == "/hello?lang=en", "the newest request is listed first")
one = Requests.get_request(journal.requests[0].id)
check(one.request.url == "/hello?lang=en", "get_request finds a serve event by id")
count = Requests.get_matching_request_count(NearMissMatchPatternRequest(url="/hello?lang=en", method="GET"))
check(count.count == 2, f"two GET /hello?lang=en, got {count.count}")
found = Requests.get_matching_requests(NearMissMatchPatternRequest(url_path_pattern="/users/.*", method="POST"))
check(len(found.requests) == 1 and found.requests[0].url == "/users/42", "find returns the POST")
anything = Requests.get_matching_requests(NearMissMatchPatternRequest(method="ANY"))
check(len(anything.requests) == 5, f"ANY finds every request, got {len(anything.requests)}")

# Unmatched requests and near misses, with Tonearm's field-level report as the distance.
unmatched = Requests.get_unmatched_requests()
check([r.url for r in unmatched.requests] == ["/hello?lang=fr"], f"one unmatched request, got {[r.url for r in unmatched.requests]}")
near = Requests.get_unmatched_requests_near_misses()
check(len(near.near_misses) >= 1, "the unmatched request has a near miss")
check(0 < near.near_misses[0].match_result.distance < 1, "a near miss's distance is between 0 and 1")
by_pattern = NearMisses.find_nearest_misses_by_request_pattern(NearMissMatchPatternRequest(url="/hello?lang=de", method="GET"))
check(len(by_pattern.near_misses) >= 1, "near misses for a pattern list the journaled requests closest to it")
by_request = NearMisses.find_nearest_misses_by_request(NearMissMatchRequest(url="/hello?lang=it", method="GET"))
check(len(by_request.near_misses) >= 1, "near misses for a request list the closest mappings")
closest = by_request.near_misses[0]
check(closest.match_result.distance < by_request.near_misses[-1].match_result.distance or len(by_request.near_misses) == 1,
      "the closest mapping comes first")

# What Tonearm cannot reproduce is refused with a 422 naming the field, never silently ignored.
try:
    Mappings.create_mapping(Mapping(
        request=MappingRequest(method=HttpMethods.GET, url="/cookie", cookies={"session": {"matchesJsonSchema": '{"unevaluatedProperties": false}'}}),
        response=MappingResponse(status=200),
    ))
    check(False, "a JSON Schema keyword Tonearm does not evaluate is refused")
except ApiException as error:
    check(error.status_code == 422 and "unevaluatedProperties" in str(error), f"422 naming unevaluatedProperties, got {error.status_code} {error}")
check(Mappings.retrieve_all_mappings().meta.total == 3, "a refused mapping is not added")

# Settings: a global fixed delay, echoed.
setting = GlobalSettings.update_global_settings(GlobalSetting(fixed_delay=0))
check(setting.fixed_delay == 0, "update_global_settings echoes the settings")

# Persisting, removing, resetting.
Mappings.persist_mappings()
Mappings.delete_mapping_by_metadata({"matchesJsonPath": {"expression": "$.owner", "equalTo": "signup"}})
check(Mappings.retrieve_all_mappings().meta.total == 2, "remove-by-metadata removes the signup mapping")
Mappings.delete_mapping(hello.id)
try:
    Mappings.retrieve_mapping(hello.id)
    check(False, "a deleted mapping is gone")
except ApiException as error:
    check(error.status_code == 404, f"404 for a deleted mapping, got {error.status_code}")
Mappings.delete_all_mappings()
check(Mappings.retrieve_all_mappings().meta.total == 0, "delete_all_mappings removes every mapping")
check(requests.get(base + "/hello?lang=en").status_code == 404, "no mapping answers after delete_all_mappings")
Mappings.reset_mappings()
check(Mappings.retrieve_all_mappings().meta.total == 0, "reset_mappings reloads the root directory, whose files went with their mappings (as WireMock)")
Requests.reset_request_journal()
check(Requests.get_all_received_requests().meta.total == 0, "reset_request_journal empties the journal")

# Scenarios: one mapping per state, moved on by a POST, back to Started through the client.
for mapping in (
    Mapping(scenario_name="cart", required_scenario_state="Started",
            request=MappingRequest(method=HttpMethods.GET, url="/cart"), response=MappingResponse(status=200, body="empty")),
    Mapping(scenario_name="cart", required_scenario_state="Started", new_scenario_state="full",
            request=MappingRequest(method=HttpMethods.POST, url="/cart"), response=MappingResponse(status=201)),
    Mapping(scenario_name="cart", required_scenario_state="full",
            request=MappingRequest(method=HttpMethods.GET, url="/cart"), response=MappingResponse(status=200, body="full")),
):
    Mappings.create_mapping(mapping)
check(requests.get(base + "/cart").text == "empty", "the cart starts empty")
check(requests.post(base + "/cart").status_code == 201, "POST /cart answers in Started")
check(requests.get(base + "/cart").text == "full", "the POST moved the scenario on")
Scenarios.reset_all_scenarios()
check(requests.get(base + "/cart").text == "empty", "reset_all_scenarios puts the cart back in Started")
print("OK")
