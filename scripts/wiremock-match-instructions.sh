#!/usr/bin/env bash
# Instructions per GET hit through ReplayEngine.match, by callgrind, in the two engines the WireMock
# goal compares (issue 12): 10,000 exact mappings as the admin API holds them (path-only URLs, keyed on
# method, path, query and body: WireMockFormat.configuration) against a 10,000-track cassette (absolute
# URLs, the default configuration). Same response bodies (~300 bytes) and random requests in both.
#
# Builds a tiny release driver against the core at $1 (default: this checkout), runs it under callgrind
# for 1 and for 2,001 rounds of 16 requests, and prints the difference ÷ 32,000, so start-up and loading
# cancel out. Load on the machine does not change the counts.
#
# Usage: scripts/wiremock-match-instructions.sh [package-path]
set -euo pipefail
work="${WIREMOCK_INSTRUCTIONS_DIR:-/tmp/tonearm-wiremock-instructions}"
source "$(dirname "$0")/bench-support/callgrind-driver.sh"
driver_package WireMockMatchDriver "$work" "${1:-}"
cat > "$work/Sources/WireMockMatchDriver/main.swift" <<'SWIFT'
import Tonearm

func body(_ i: Int) -> [UInt8] {
    let text = "{\"id\":\(i),\"name\":\"item \(i)\",\"description\":\"" + String(repeating: "x", count: 200) + "\",\"price\":\(i % 997)}"
    return Array(text.utf8)
}
let headers = [HeaderField("Content-Type", "application/json")]
let count = 10_000
// What WireMockStubs holds: path-only exact mappings under WireMockFormat.configuration.
let wireMock = MatchingConfiguration(attributes: [.method, .path, .query, .body])
let mappings = ReplayEngine(strategy: .repeat, configuration: wireMock)
for i in 0..<count {
    mappings.add(Track(request: Request(method: "GET", url: "/items/\(i)"), response: Response(status: 200, headers: headers, body: body(i))))
}
let cassette = ReplayEngine(tracks: (0..<count).map {
    Track(request: Request(method: "GET", url: "http://bench.local/items/\($0)"), response: Response(status: 200, headers: headers, body: body($0)))
})
let arguments = CommandLine.arguments.dropFirst()
let useMappings = arguments.first == "mappings"
let rounds = Int(arguments.dropFirst().first ?? "1") ?? 1
// The requests as each server matches them: the path as sent, or the URL the host in the path stands for.
let picks = [17, 4242, 9001, 123, 7777, 31, 5555, 808, 2024, 6100, 42, 9999, 1, 3131, 4096, 8191]
let requests = picks.map { i in
    useMappings
        ? Request(method: "GET", url: "/items/\(i)", headers: [HeaderField("Host", "127.0.0.1:8080"), HeaderField("User-Agent", "wrk")])
        : Request(method: "GET", url: "http://bench.local/items/\(i)", headers: [HeaderField("User-Agent", "wrk")])
}
let engine = useMappings ? mappings : cassette
var sum = 0
for _ in 0..<rounds {
    for request in requests { sum &+= engine.match(request).hit?.track.response?.status ?? 0 }
}
print(sum)
SWIFT
driver_build
for kind in cassette mappings; do
    echo "instructions per GET hit, $kind (10,000): $(per_iteration 32000 "$kind")"
done
