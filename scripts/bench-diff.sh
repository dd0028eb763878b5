#!/bin/sh
# `tonearm diff` of two 10,000-track cassettes (issue 32: under 2 s): the release binary, the seeded REST
# traffic of `tonearm bench --save-cassette` as the old recording, and a re-recording of it made by
# scripts/bench-support/rerecord.py (tracks shuffled, dates, ids and member order new, a few real changes).
# Usage: scripts/bench-diff.sh [TRACKS] (default 10000); TONEARM=path/to/tonearm measures a binary already
# built (see scripts/bench-support/tonearm-binary.sh). Prints the wall time and peak memory of each run.
set -eu
cd "$(dirname "$0")/.."
TRACKS=${1:-10000}
. scripts/bench-support/tonearm-binary.sh
work="${TMPDIR:-/tmp}/tonearm-bench-diff-$$"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
"$TONEARM" bench --tracks "$TRACKS" --seed 42 --save-cassette "$work/old.json" >/dev/null
python3 scripts/bench-support/rerecord.py "$work/old.json" "$work/new.json"
ls -l "$work/old.json" "$work/new.json" | awk '{print $9 ": " $5 " bytes"}'
for format in text json; do
    for run in 1 2 3; do
        # diff exits 1 when there are differences, as here.
        /usr/bin/time -q -f "diff --format $format, run $run: %e s wall, %U s user, %M KiB peak" \
            "$TONEARM" diff "$work/old.json" "$work/new.json" --format "$format" > "$work/report.$format" || [ $? -eq 1 ]
    done
done
echo "report: $(tail -1 "$work/report.text")"
for run in 1 2 3; do
    /usr/bin/time -q -f "diff --textconv, run $run: %e s wall, %U s user, %M KiB peak" "$TONEARM" diff --textconv "$work/new.json" > /dev/null
done
