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
package="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
work="${KEY_INSTRUCTIONS_DIR:-/tmp/tonearm-key-instructions}"
mkdir -p "$work/Sources/KeyDriver"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "KeyDriver",
    dependencies: [.package(name: "Tonearm", path: "$package")],
    targets: [.executableTarget(name: "KeyDriver", dependencies: [.product(name: "Tonearm", package: "Tonearm")])])
SWIFT
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
swift build -c release --package-path "$work" >&2
binary="$work/.build/release/KeyDriver"
# valgrind 3.19 cannot read this toolchain's debug info; a copy without it keeps the symbols.
strip --strip-debug -o "$work/KeyDriver.stripped" "$binary"
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/KeyDriver.stripped" "$1" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
one=$(instructions 1)
many=$(instructions 2001)
echo "instructions per GET key: $(( (many - one) / 2000 ))"
