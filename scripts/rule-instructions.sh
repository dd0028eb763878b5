#!/usr/bin/env bash
# Instructions per rule match (issue 33), by callgrind: `ReplayEngine.match` of a GET answered by one of
# COUNT rules of the issue's shape (`^https://api\.example\.com/v1/res<i>/[0-9]+/items$`), requests
# spread over all rules, and for reference an exact replay hit among 1,000 tracks. The driver is
# compiled as scripts/bench-rules.sh compiles its own (`swiftc -O -wmo` with the core's sources, the
# portable XXH3, no debug info for valgrind 3.19 to choke on); it loads the rules, matches each of its
# 1,024 requests once (so first-visit costs are paid before counting), then matches N requests. Run
# under callgrind with N = 1 and N = 1 + ITERATIONS, the difference ÷ ITERATIONS is the steady cost of
# one request: loading and warming cancel out.
#
#   scripts/rule-instructions.sh                      # 100 and 10,000 rules, and the exact hit
#   COUNTS="100 1000 10000" ITERATIONS=500 scripts/rule-instructions.sh
#   SOURCES=/tmp/base/Sources/Tonearm scripts/rule-instructions.sh   # another checkout's core, e.g.
#       git archive fd2b5f2 Sources/Tonearm | tar -x -C /tmp/base      # the core before issue 33
set -euo pipefail
cd "$(dirname "$0")/.."
COUNTS=${COUNTS:-100 10000}
ITERATIONS=${ITERATIONS:-2000}
work="${RULE_INSTRUCTIONS_DIR:-/tmp/tonearm-rule-instructions}"
rm -rf "$work" && mkdir -p "$work"
find "${SOURCES:-Sources/Tonearm}" -name '*.swift' > "$work/sources"
cat > "$work/body.swift" <<'SWIFT'
// arguments: exact | issue COUNT, then the number of requests to match after the warm-up.
let arguments = Array(CommandLine.arguments.dropFirst())
let shape = arguments.first ?? "issue"
let count = arguments.count > 2 ? Int(arguments[1]) ?? 100 : 100
let iterations = Int(arguments.last ?? "1") ?? 1
let engine: ReplayEngine
let requests: [Request]
if shape == "exact" {
    let tracks = (0..<1_000).map {
        Track(request: Request(method: "GET", url: "https://api.example.com/v1/t\($0)/items"), response: Response(status: 200, body: "{}"))
    }
    engine = ReplayEngine(tracks: tracks)
    requests = (0..<1_024).map { tracks[($0 &* 7_919) % tracks.count].request }
} else {
    let rules = (0..<count).map { number in
        Rule(name: "res\(number)", method: "GET", pattern: "^https://api\\.example\\.com/v1/res\(number)/[0-9]+/items$",
             response: Response(status: 200, body: "{\"rule\":\(number)}"))
    }
    do { engine = try ReplayEngine(rules: rules) } catch { print("rules do not compile: \(error)"); exit(1) }
    // The same spread as scripts/bench-rules/main.swift: a seeded rule number and id per request.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    requests = (0..<1_024).map { _ in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Request(method: "GET", url: "https://api.example.com/v1/res\(Int((state >> 33) % UInt64(count)))/\(Int((state >> 13) % 100_000))/items")
    }
}
var hits = 0
for request in requests where engine.match(request).hit != nil { hits += 1 }
guard hits == requests.count else { print("\(requests.count - hits) misses"); exit(1) }
for number in 0..<iterations where engine.match(requests[number % requests.count]).hit != nil { hits += 1 }
print(hits)
SWIFT
{ echo '#if canImport(Glibc)'; echo 'import Glibc'; echo '#endif'; cat "$work/body.swift"; } > "$work/main.swift"
swiftc -O -wmo -D TONEARM_PORTABLE_XXH3 -module-name TonearmRuleInstructions -package-name Tonearm \
    $(cat "$work/sources") "$work/main.swift" -o "$work/driver" 2>&1 | grep -E "error" || true
[ -x "$work/driver" ] || { echo "the driver did not build" >&2; exit 1; }

instructions() {  # the instructions callgrind collects for one run of the driver with these arguments
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/driver" "$@" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
per_request() {
    local one many
    one=$(instructions "$@" 1)
    many=$(instructions "$@" $(( ITERATIONS + 1 )))
    echo $(( (many - one) / ITERATIONS ))
}
echo "core: ${SOURCES:-Sources/Tonearm}; $ITERATIONS requests counted"
echo "instructions per exact replay hit (1,000 tracks): $(per_request exact 0)"
for count in $COUNTS; do
    echo "instructions per rule match, $count rules (issue shape): $(per_request issue "$count")"
done
