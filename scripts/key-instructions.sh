#!/usr/bin/env bash
# Instructions per GET key (the 120-character, 6-parameter URL of KeyRequests.get()), by callgrind.
#
# Builds a tiny release driver against the Tonearm package at $1 (default: this checkout) in a
# temporary package, runs it under callgrind for 1 and for 2,001 keys, and prints the difference ÷ 2,000,
# so start-up and the first key's one-time costs cancel out. Instruction counts, unlike wall-clock
# time, do not depend on what else the machine is running.
#
# Usage: scripts/key-instructions.sh [package-path]
set -euo pipefail
work="${KEY_INSTRUCTIONS_DIR:-/tmp/tonearm-key-instructions}"
source "$(dirname "$0")/bench-support/callgrind-driver.sh"
driver_package KeyDriver "$work" "${1:-}"
cat > "$work/Sources/KeyDriver/main.swift" <<'SWIFT'
import Tonearm

// The request of TonearmWorkloads' KeyRequests.get(), written out so the driver needs only the core.
let url = "https://api7.example.com/v1/users/10042/orders?sort=created_at&page=3&per_page=50"
    + "&lang=en&filter=status%3Aopen&cursor=c0"
precondition(url.utf8.count == 120)
let request = Request(
    method: "GET", url: url,
    headers: [HeaderField("Accept", "application/json"), HeaderField("User-Agent", "tonearm-bench/1")])
let canonicalizer = RequestCanonicalizer()
let count = Int(CommandLine.arguments.dropFirst().first ?? "1") ?? 1
var sum: UInt64 = 0
for _ in 0..<count { sum &+= canonicalizer.key(for: request).value }
print(sum)
SWIFT
driver_build
echo "instructions per GET key: $(per_iteration 2000)"
