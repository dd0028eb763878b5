#!/usr/bin/env bash
# "Keeping cassettes healthy" (docs/testing.md) on the example package, Examples/ShopApp, for real:
#   1. its tests run with TONEARM_USAGE_DIR set, and `tonearm coverage` finds every cassette used;
#   2. a test is deleted: coverage (a CI gate) names its cassette as never loaded, prune removes it;
#   3. the shop's price changes and one test is re-recorded: `tonearm diff` shows that one pointer,
#      not the Date, request id and recordedAt that changed with it.
# Runs in a copy of the package in a temporary folder (this checkout is left as it is), prints each
# command and its output, and fails when an output is not what the docs say.
#
# Usage: scripts/cassette-health-demo.sh      (TONEARM=path/to/tonearm to use a built binary)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${TONEARM:-}" ]; then
    swift build --package-path "$root" --product tonearm >/dev/null 2>&1
    TONEARM="$root/.build/debug/tonearm"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tonearm-health.XXXXXX")
shop_pid=
cleanup() {
    [ -z "$shop_pid" ] || kill "$shop_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The package, pointing at this checkout; the build is kept between runs.
mkdir "$work/ShopApp"
(cd "$root/Examples/ShopApp" && tar --exclude=.build --exclude=Package.resolved -cf - .) | tar -xf - -C "$work/ShopApp"
sed -i "s|path: \"../..\"|path: \"$root\"|" "$work/ShopApp/Package.swift"
cd "$work/ShopApp"
cassettes=Tests/ShopClientTests/__Cassettes__/ShopClientTests

tonearm() { "$TONEARM" "$@"; }
shown() { printf '$ %s\n' "$*" | sed "s|$TONEARM|tonearm|"; }
# Runs the package's tests as the docs show them: the summary line only.
swift_test() {
    shown "$@" swift test
    env "$@" swift test --scratch-path "$root/.build-example" 2>&1 | grep -E '^(✔|✘) Test run' || { echo "cassette-health-demo.sh: swift test failed" >&2; exit 1; }
}
expect() {  # expect STATUS TEXT COMMAND...: runs it, prints its output, checks its status and that TEXT is in it
    local status=$1 text=$2 output code=0
    shift 2
    shown tonearm "$@"
    output=$(tonearm "$@" 2>&1) || code=$?
    printf '%s\n' "$output"
    [ "$code" = "$status" ] || { echo "cassette-health-demo.sh: exit status $code, expected $status" >&2; exit 1; }
    grep -qF -- "$text" <<<"$output" || { echo "cassette-health-demo.sh: expected output with: $text" >&2; exit 1; }
}

echo "== 1. Every cassette used"
swift_test TONEARM_USAGE_DIR=usage-1
expect 0 "0 never loaded, 0 track(s) and 0 rule(s) never used" coverage --usage usage-1 Tests --fail-on-unused

echo
echo "== 2. A test deleted: its cassette is reported, then pruned"
python3 - <<'PY'
import re
path = "Tests/ShopClientTests/ShopClientTests.swift"
text = open(path).read()
text, count = re.subn(r"\n    @Test\(\.cassette\) func search\(\).*?\n    }\n", "\n", text, flags=re.S)
assert count == 1, "the search test was not found"
open(path, "w").write(text)
PY
echo "(deleted the test search() from ShopClientTests.swift)"
swift_test TONEARM_USAGE_DIR=usage-2
expect 1 "$cassettes/search.json: never loaded by the run" coverage --usage usage-2 Tests --fail-on-unused
expect 0 "would delete (never loaded)" prune --usage usage-2 Tests --delete-unloaded
expect 0 "$cassettes/search.json: delete (never loaded)" prune --usage usage-2 Tests --delete-unloaded --write
[ ! -e "$cassettes/search.json" ] || { echo "cassette-health-demo.sh: search.json is still there" >&2; exit 1; }

echo
echo "== 3. Re-recorded after the price changed: the review shows one pointer"
SHOP_PRICE=13 python3 shop-api.py > "$work/shop.log" 2>&1 &
shop_pid=$!
for _ in $(seq 50); do grep -q listening "$work/shop.log" 2>/dev/null && break; sleep 0.1; done
cp "$cassettes/productPrice.json" "$work/productPrice.before.json"
swift_test TONEARM_RECORD=all
kill "$shop_pid"
shop_pid=
echo "\$ diff -u productPrice.before.json $cassettes/productPrice.json | grep -c '^[-+] '   # what a text diff shows a reviewer"
diff -u "$work/productPrice.before.json" "$cassettes/productPrice.json" | grep -c '^[-+] ' || true
cp "$work/productPrice.before.json" productPrice.before.json
expect 1 "/price: 12.5 → 13" diff productPrice.before.json "$cassettes/productPrice.json"
