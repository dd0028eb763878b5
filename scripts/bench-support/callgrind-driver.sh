# Sourced by the scripts/*-instructions.sh scripts: the scaffolding that counts a small Swift driver's
# instructions per iteration with callgrind. Instruction counts, unlike wall-clock time, do not depend on
# what else the machine is running. A script calls, in order:
#
#   driver_package NAME WORK [PACKAGE]  makes WORK a temporary package whose executable target NAME depends
#                                       on the Tonearm package at PACKAGE (default: this checkout); the
#                                       script then writes WORK/Sources/NAME/main.swift, whose last
#                                       argument is the number of iterations to run
#   driver_build                        builds it in release and strips the debug info valgrind cannot read
#   per_iteration DIVISOR [ARGS...]     runs the driver under callgrind with ARGS then 1, and with ARGS then
#                                       2,001, and prints the difference ÷ DIVISOR (2,000 × the work one
#                                       iteration does), so start-up, loading and the first iteration's
#                                       one-time costs cancel out

driver_package() {
    DRIVER_NAME=$1
    DRIVER_WORK=$2
    local package
    package="$(cd "${3:-$(dirname "${BASH_SOURCE[0]}")/../..}" && pwd)"
    mkdir -p "$DRIVER_WORK/Sources/$DRIVER_NAME"
    cat > "$DRIVER_WORK/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "$DRIVER_NAME",
    dependencies: [.package(name: "Tonearm", path: "$package")],
    targets: [.executableTarget(name: "$DRIVER_NAME", dependencies: [.product(name: "Tonearm", package: "Tonearm")])])
SWIFT
}

driver_build() {
    swift build -c release --package-path "$DRIVER_WORK" >&2
    # valgrind 3.19 cannot read this toolchain's debug info; a copy without it keeps the symbols.
    strip --strip-debug -o "$DRIVER_WORK/$DRIVER_NAME.stripped" "$DRIVER_WORK/.build/release/$DRIVER_NAME"
}

# The instructions callgrind collects for one run of the driver with ARGS.
driver_instructions() {
    # Deterministic hashing: a random seed per process moves the count by hundreds of instructions a request.
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$DRIVER_WORK/$DRIVER_NAME.stripped" "$@" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

per_iteration() {
    local divisor=$1 one many
    shift
    one=$(driver_instructions "$@" 1)
    many=$(driver_instructions "$@" 2001)
    echo $(( (many - one) / divisor ))
}
