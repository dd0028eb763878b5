#!/bin/sh
# Rule-set scale (issue 33): per-request CPU at 100 / 1,000 / 10,000 rules of the issue's shape against an
# exact replay hit, load time and resident memory. Compiles scripts/bench-rules/*.swift with the core's
# sources as one optimised module (the portable XXH3, so no SwiftPM build and no libxxhash needed).
# Usage: scripts/bench-rules.sh [issue|middle|workload|load|live|worst|sample|profile=PATTERN ...], or e.g. issue@100,10000 for those sizes only
# (load: only load the issue-shaped rules; live: add 4,096 and remove 1,000 one at a time after loading;
# worst: the `Pattern worst …` cases of docs/benchmarks.md ("Worst cases") on 80 KB paths, CPU time, worst@N for N runs each;
# sample: the random sample of wide patterns and the realistic rule sets against the step-cost limit, sample@N for N patterns,
# SAMPLE_CSV=1 for each pattern's step operations and time; profile=PATTERN: one pattern's bit-parallel steps on 80 KB).
# SOURCES=<dir> compiles another checkout's Sources/Tonearm (e.g. `git archive fd2b5f2 Sources/Tonearm | tar -x -C /tmp/base`
# then SOURCES=/tmp/base/Sources/Tonearm) with the same driver, for a before/after pair.
set -eu
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/tonearm-bench-rules-$$"
find "${SOURCES:-Sources/Tonearm}" -name '*.swift' > "$out.sources"
# The workload generators, in the same module (so without their `import Tonearm`).
mkdir -p "$out.workloads"
for file in AdversarialText RuleWorkload NaiveRuleMatcher SeededRandom Vocabulary WorkloadShape Blueprint GeneratedJSON JSONStructure; do
    sed '/^import Tonearm$/d' "Sources/TonearmWorkloads/$file.swift" > "$out.workloads/$file.swift"
    echo "$out.workloads/$file.swift" >> "$out.sources"
done
swiftc -O -wmo -D TONEARM_PORTABLE_XXH3 -module-name TonearmRuleBench -package-name Tonearm \
    $(cat "$out.sources") scripts/bench-rules/*.swift -o "$out" 2>&1 | grep -E "error" || true
"$out" "$@"
rm -rf "$out" "$out.sources" "$out.workloads"
