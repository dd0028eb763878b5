# Sourced by the server benchmark scripts: sets TONEARM to the `tonearm` binary to measure.
# TONEARM=path/to/tonearm measures a binary already built (no build, so it can run beside one); otherwise a
# release build in a scratch path of its own, so it neither waits for nor invalidates `swift test`'s.
CONFIG=${CONFIG:-release}
SCRATCH=${SCRATCH:-.build-bench}
if [ -z "${TONEARM:-}" ]; then
    swift build -c "$CONFIG" --product tonearm --scratch-path "$SCRATCH" >/dev/null
    TONEARM=$(swift build -c "$CONFIG" --scratch-path "$SCRATCH" --show-bin-path)/tonearm
fi
