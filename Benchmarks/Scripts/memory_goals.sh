#!/bin/sh
# Measures issue 9's memory goals with a release `tonearm`: loading a cassette for replay takes at most
# 2x the file's size once loaded and 3x at the peak, at 10k realistic tracks and 1M tiny tracks; plus
# HAR reload, HAR export and `tonearm key --json` on a 200 MB body (peak resident, /usr/bin/time -v).
# Each measurement is its own process, so its figures are about that load alone.
#
# Usage: Benchmarks/Scripts/memory_goals.sh [TONEARM] [WORKDIR]
#   TONEARM  a release build (default .build/release/tonearm: `swift build -c release --product tonearm`)
#   WORKDIR  where the generated files go (default /tmp/tonearm-memory; about 1.3 GB)
set -eu
TONEARM=${1:-.build/release/tonearm}
WORK=${2:-/tmp/tonearm-memory}
SCRIPTS=$(dirname "$0")
mkdir -p "$WORK"

peak() {  # the command's maximum resident set size, in MB
    /usr/bin/time -f "%M" "$@" 2>"$WORK/time.txt" >/dev/null
    echo "$(($(tail -n 1 "$WORK/time.txt") / 1000)) MB"
}

[ -f "$WORK/realistic10k.json" ] || "$TONEARM" bench --tracks 10000 --save-cassette "$WORK/realistic10k.json"
[ -f "$WORK/tiny1m.json" ] || python3 "$SCRIPTS/large_cassette.py" 1000000 "$WORK/tiny1m.json" 42 --tiny
[ -f "$WORK/tiny1m.har" ] || "$TONEARM" convert "$WORK/tiny1m.json" "$WORK/tiny1m.har"

for cassette in realistic10k.json tiny1m.json tiny1m.har; do
    "$TONEARM" bench --memory --cassette "$WORK/$cassette"
done

# A 10,000-track cassette replayed through URLSession (every request once), and that process's peak.
"$TONEARM" bench --memory --through-urlsession --cassette "$WORK/realistic10k.json"
echo "whole process, 10k realistic tracks through URLSession, peak: $(peak "$TONEARM" bench --memory --through-urlsession --cassette "$WORK/realistic10k.json")"

echo "HAR export of tiny1m.json, peak: $(peak "$TONEARM" convert "$WORK/tiny1m.json" "$WORK/export.har")"

python3 - "$WORK/body200.json" <<'PYTHON'
import json, random, sys
rng = random.Random(1)
with open(sys.argv[1], "w") as out:
    out.write("[")
    written = 0
    while written < 200_000_000:
        item = json.dumps({"id": rng.randrange(10**9), "name": f"item {written}", "tags": ["a", "b"], "price": rng.random()}, separators=(",", ":"))
        out.write(("," if written else "") + item)
        written += len(item) + 1
    out.write("]")
PYTHON
echo "key --json, 200 MB JSON body from --body-file, peak: $(peak "$TONEARM" key --json --method POST --url https://a.example/x \
    --header "Content-Type: application/json" --body-file "$WORK/body200.json")"
