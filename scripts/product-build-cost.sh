#!/usr/bin/env bash
# What one Tonearm product costs a package that depends on it: a new package with a test target
# importing PRODUCT (by path from TONEARM, this checkout by default) is built cold, tests included, in
# a scratch folder of its own; prints the CPU seconds (user + system), the wall time and the modules
# compiled.
#
#   scripts/product-build-cost.sh TonearmTesting
#   TONEARM=/path/to/old/checkout scripts/product-build-cost.sh TonearmTesting   # before a change
#
# The numbers in README's product table and docs/benchmarks.md ("Build cost of each product") come from
# this script.
set -euo pipefail

product=${1:?usage: product-build-cost.sh PRODUCT}
tonearm=$(cd "${TONEARM:-$(dirname "$0")/..}" && pwd)
work=$(mktemp -d /tmp/tonearm-product-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/Sources/Consumer" "$work/Tests/ConsumerTests"
cat > "$work/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(path: "$tonearm")],
    targets: [
        .target(name: "Consumer"),
        .testTarget(name: "ConsumerTests", dependencies: ["Consumer", .product(name: "$product", package: "$(basename "$tonearm")")]),
    ]
)
EOF
echo 'public let consumer = 1' > "$work/Sources/Consumer/Consumer.swift"
cat > "$work/Tests/ConsumerTests/ConsumerTests.swift" <<EOF
import Testing
import $product

@Test func builds() {}
EOF

cd "$work"
swift package resolve >/dev/null 2>&1
/usr/bin/time -f '%U %S %e' -o "$work/time" swift build --build-tests >"$work/build.log" 2>&1 || {
    tail -20 "$work/build.log"
    exit 1
}
read -r user system wall <"$work/time"
# SwiftPM fetches every package in the graph (and makes a folder for every target) but compiles only
# the modules the product needs: those with object files.
modules=$(find .build/debug/ -mindepth 2 -maxdepth 2 -name '*.o' -printf '%h\n' | sort -u | sed 's|.*/||; s/\.build$//')
awk -v p="$product" -v u="$user" -v s="$system" -v w="$wall" -v n="$(echo "$modules" | wc -l)" \
    'BEGIN { printf "%s: %.0f CPU s, %.0f s wall, %d modules compiled\n", p, u + s, w, n }'
echo "modules: $(echo "$modules" | tr '\n' ' ')"
if echo "$modules" | grep -qx 'NIOCore'; then echo "compiles SwiftNIO: yes"; else echo "compiles SwiftNIO: no"; fi
