#!/usr/bin/env bash
# Instructions per GET hit through ReplayEngine.match (key, lookup, and the hit's Track handed back),
# by callgrind, for four tracks in one 10,003-track engine: the 120-character GET of KeyRequests.get()
# answered by a realistic JSON response (headers and a 1 KB body: about 1,250 bytes packed, so stored as
# a value), a tiny track (GET https://t.example/N answered by an empty 200: stored packed), a track of
# the server benchmark's cassette (bench-support/bench_cassette.py: a 300-byte JSON body, about 370
# bytes packed) and a medium one (the realistic request and headers, a 490-byte body: about 760 bytes
# packed). Whether the last two are packed depends on TrackStore.packedLimit. The hit is dropped at
# once, so releasing it is counted too.
#
# Builds a tiny release driver against the Tonearm package at $1 (default: this checkout) in a
# temporary package, runs it under callgrind for 1 and for 2,001 matches of each request, and prints
# the difference ÷ 2,000, so start-up, loading and the first match cancel out.
#
# Usage: scripts/match-instructions.sh [package-path]
set -euo pipefail
work="${MATCH_INSTRUCTIONS_DIR:-/tmp/tonearm-match-instructions}"
source "$(dirname "$0")/bench-support/callgrind-driver.sh"
driver_package MatchDriver "$work" "${1:-}"
cat > "$work/Sources/MatchDriver/main.swift" <<'SWIFT'
import Tonearm

// The request of TonearmWorkloads' KeyRequests.get(), written out so the driver needs only the core.
let url = "https://api7.example.com/v1/users/10042/orders?sort=created_at&page=3&per_page=50"
    + "&lang=en&filter=status%3Aopen&cursor=c0"
let realistic = Request(
    method: "GET", url: url,
    headers: [HeaderField("Accept", "application/json"), HeaderField("User-Agent", "tonearm-bench/1")])
let realisticResponse = Response(
    status: 200,
    headers: [HeaderField("Content-Type", "application/json"), HeaderField("Cache-Control", "no-cache"),
              HeaderField("X-Request-Id", "7f3c2a9e4b1d8c6f")],
    body: Array(("[" + (0..<40).map { "{\"id\":\($0),\"state\":\"open\"}" }.joined(separator: ",") + "]").utf8))
let medium = Request(method: "GET", url: url + "1", headers: realistic.headers)
let mediumResponse = Response(
    status: 200, headers: realisticResponse.headers,
    body: Array(("[" + (0..<20).map { "{\"id\":\($0),\"state\":\"open\"}" }.joined(separator: ",") + "]").utf8))
// Item 4242 of bench_cassette.py, padded to 300 bytes as it pads.
let item = "{\"id\":4242,\"name\":\"item 4242\",\"description\":\"" + String(repeating: "x", count: 200)
    + "\",\"price\":\(4242 % 997),\"tags\":[\"a\",\"b\"]}"
let bench = Request(url: "http://bench.local/items/4242")
let benchResponse = Response(
    status: 200, headers: [HeaderField("Content-Type", "application/json")],
    body: Array((item + String(repeating: " ", count: 300 - item.utf8.count)).utf8))
let tiny = (0..<10_000).map { Track(request: Request(url: "https://t.example/\($0)"), response: Response()) }
let engine = ReplayEngine(tracks: tiny + [
    Track(request: realistic, response: realisticResponse), Track(request: bench, response: benchResponse),
    Track(request: medium, response: mediumResponse),
])
let arguments = CommandLine.arguments.dropFirst()
let requests = ["tiny": Request(url: "https://t.example/4242"), "bench": bench, "medium": medium]
let request = requests[arguments.first ?? ""] ?? realistic
let count = Int(arguments.dropFirst().first ?? "1") ?? 1
var sum = 0
for _ in 0..<count { sum &+= engine.match(request).hit?.track.response?.status ?? 0 }
print(sum)
SWIFT
driver_build
for kind in realistic tiny bench medium; do
    echo "instructions per GET hit, $kind track: $(per_iteration 2000 "$kind")"
done
