#!/usr/bin/env bash
# Builds the core and its concurrency tests with ThreadSanitizer and runs them; fails when a test fails
# or TSan reports anything. The tests are the root package's (TSan/Tests holds symbolic links to them),
# built in the TSan/ package so that only the core is compiled with the sanitizer, never SwiftNIO,
# BoringSSL or AsyncHTTPClient. docs/benchmarks.md ("CI: the lock-free containers under
# ThreadSanitizer") has its timings and what it leaves out.
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
flags=(--package-path TSan -c release --sanitize=thread -Xswiftc -enable-testing)
swift build "${flags[@]}" --build-tests

# The suites named *ConcurrencyTests: LiveEngineTests.swift is linked whole for its concurrency suite.
# halt_on_error ends the run at the first report with TSan's exit code; the log is searched as well, so
# a report from a process that exits 0 anyway still fails the job.
log=TSan/.build/tsan.log
status=0
TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" \
    swift test "${flags[@]}" --skip-build --filter 'ConcurrencyTests' 2>&1 | tee "$log" \
    || status=$?
if grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "tsan.sh: ThreadSanitizer reported a race (the report is above, and in $log)" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "tsan.sh: the concurrency tests failed under ThreadSanitizer (exit $status; log in $log)" >&2
    exit "$status"
fi
