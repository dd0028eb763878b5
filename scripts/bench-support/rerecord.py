"""A re-recording of a native cassette, for `tonearm diff` benchmarks: what a real re-recording changes
anyway, plus a few changes that matter.

Usage: python3 rerecord.py OLD NEW [SEED]

Anyway (none of it a difference): the tracks shuffled, every recordedAt and every response's Date and
X-Request-Id new, JSON body members in reverse order, the file indented differently. Changes that
matter: 20 JSON bodies with one number changed, 5 tracks removed, 5 added, 3 statuses changed and one
request recorded twice (a retry).
"""
import json
import random
import sys


def reversed_members(value):
    if isinstance(value, dict):
        return {key: reversed_members(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_members(element) for element in value]
    return value


def bump_first_number(value):
    """Adds 1 to the first number found depth-first; True when one was found."""
    if isinstance(value, dict):
        return any(bump_number_at(value, key) for key in value)
    if isinstance(value, list):
        return any(bump_number_at(value, index) for index in range(len(value)))
    return False


def bump_number_at(container, key):
    element = container[key]
    if isinstance(element, (int, float)) and not isinstance(element, bool):
        container[key] = element + 1
        return True
    return bump_first_number(element)


def main(old_path, new_path, seed):
    rng = random.Random(seed)
    with open(old_path) as file:
        cassette = json.load(file)
    tracks = cassette["tracks"]
    rng.shuffle(tracks)
    for index, track in enumerate(tracks):
        track["recordedAt"] = "2025-06-0%dT10:%02d:%02d.000Z" % (1 + index % 9, index // 60 % 60, index % 60)
        response = track.get("response")
        if response is None:
            continue
        headers = [pair for pair in response.get("headers", []) if pair[0].lower() not in ("date", "x-request-id")]
        headers += [["Date", "Sun, 01 Jun 2025 10:00:%02d GMT" % (index % 60)], ["X-Request-Id", "req-%d-%d" % (seed, index)]]
        response["headers"] = headers
        body = response.get("body", {})
        if "json" in body:
            body["json"] = reversed_members(body["json"])
    json_tracks = [track for track in tracks if "json" in track.get("response", {}).get("body", {})]
    changed = sum(bump_first_number(track["response"]["body"]["json"]) for track in json_tracks[:20])
    for track in tracks[100:103]:
        if "response" in track:
            track["response"]["status"] = 500 if track["response"]["status"] != 500 else 200
    removed = tracks[200:205]
    del tracks[200:205]
    for index, track in enumerate(removed):
        added = json.loads(json.dumps(track))
        added["request"]["url"] = added["request"]["url"].split("?")[0] + "/added-%d" % index
        tracks.append(added)
    retried = json.loads(json.dumps(tracks[300]))
    if "response" in retried:
        retried["response"]["status"] = 503
    tracks.insert(300, retried)
    with open(new_path, "w") as file:
        json.dump(cassette, file, indent=1)
    print("%s: %d tracks; %d bodies with a number changed, 3 statuses, 5 removed, 5 added, 1 retry" % (new_path, len(tracks), changed))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 7)
