#!/usr/bin/env bash
# `tonearm coverage` and `tonearm prune` (dry run) over 1,000 cassette files of 20 tracks each, 900 of
# them loaded by the "run" (usage records written as 90 processes would, each of 10 files, with every
# fifth track unused): the issue's goal is under 5 s. Prints the wall time of each command.
#
# Usage: TONEARM=.build-dist/release/tonearm scripts/bench-coverage.sh
set -euo pipefail
tonearm=${TONEARM:?set TONEARM to a release build of tonearm}
work=$(mktemp -d "${TMPDIR:-/tmp}/tonearm-bench-coverage.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
files = []
for index in range(1000):
    folder = os.path.join(work, "cassettes", f"Suite{index // 50}")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"test{index}.json")
    tracks = [{"recordedAt": "2026-11-27T10:00:00.000Z",
               "request": {"method": "GET", "url": f"https://api.example.com/v1/items/{index}/{track}?page=1"},
               "response": {"status": 200, "headers": [["Content-Type", "application/json"]],
                            "body": {"json": {"id": track, "name": f"item {track}", "tags": ["a", "b"], "price": 12.5}}}}
              for track in range(20)]
    with open(path, "w") as out:
        json.dump({"formatVersion": 1, "tracks": tracks}, out, indent=2)
    files.append(os.path.realpath(path))
os.makedirs(os.path.join(work, "usage"))
for process in range(90):
    loaded = files[process * 10:(process + 1) * 10]
    record = {"tonearmUsage": 1, "writer": "bench", "files": [
        {"path": path, "loads": 1, "tracks": 20, "rules": 0,
         "trackPlays": [[track, 1] for track in range(20) if track % 5], "rulePlays": []} for path in loaded]}
    with open(os.path.join(work, "usage", f"bench-{process}.tonearm-usage.json"), "w") as out:
        json.dump(record, out)
PY
for command in "coverage --format json" "prune"; do
    start=$(date +%s.%N)
    "$tonearm" $command --usage "$work/usage" "$work/cassettes" > "$work/out.txt"
    end=$(date +%s.%N)
    printf 'tonearm %s over 1,000 files (900 loaded, 3,600 unused tracks): %.2f s, %s lines of output\n' \
        "$command" "$(echo "$end - $start" | bc)" "$(wc -l < "$work/out.txt")"
done
