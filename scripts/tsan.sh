#!/usr/bin/env bash
# Builds the core's and the server's lock-free code and their concurrency tests with ThreadSanitizer and
# runs them; fails when a test fails or TSan reports anything. The tests are the root package's (TSan/Tests
# and TSan/Server/Tests hold symbolic links to them), built in packages of their own so that the root
# package's one test bundle (every test, every dependency) is not compiled with the sanitizer.
# docs/benchmarks.md ("CI: the lock-free containers under ThreadSanitizer") has its timings and what it
# leaves out.
#
#   scripts/tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# CI's warnings-as-errors switch adds unsafe flags to the root package's targets, which SwiftPM refuses
# in a dependency, and TSan/ depends on the root package.
unset TONEARM_WARNINGS_AS_ERRORS

# Release, not debug: at -Onone a plain (non-atomic) access through an unsafe pointer, the very mistake
# this job is for, is not seen by TSan (a racy read-modify-write of an AtomicCounters slot went
# unreported in debug and was reported at once in release). -enable-testing for the tests' @testable
# imports, which SwiftPM enables in debug builds only.
#
# Two packages: TSan/ (the core's containers, no SwiftNIO) and TSan/Server (the server's cache of
# encoded answers, which needs SwiftNIO and the rest of the server's dependencies built with the
# sanitizer too). Each runs its suites named *ConcurrencyTests (LiveEngineTests.swift is linked whole for
# its concurrency suite). halt_on_error ends a run at the first report with TSan's exit code; the log is
# searched as well, so a report from a process that exits 0 anyway still fails the job.
run() {
    local package=$1
    local flags=(--package-path "$package" -c release --sanitize=thread -Xswiftc -enable-testing)
    swift build "${flags[@]}" --build-tests
    local log=$package/.build/tsan.log status=0
    TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" \
        swift test "${flags[@]}" --skip-build --filter 'ConcurrencyTests' 2>&1 | tee "$log" \
        || status=$?
    if grep -q "WARNING: ThreadSanitizer" "$log"; then
        echo "tsan.sh: ThreadSanitizer reported a race in $package (the report is above, and in $log)" >&2
        exit 1
    fi
    if [ "$status" -ne 0 ]; then
        echo "tsan.sh: the concurrency tests of $package failed under ThreadSanitizer (exit $status; log in $log)" >&2
        exit "$status"
    fi
}

run TSan
run TSan/Server
