#!/usr/bin/env bash
# Installs the system packages a job needs and that the machine lacks, then returns; README's two
# commands and .ci/run call it before any Swift command, so a fresh clone needs no other step.
#
#   scripts/setup-system.sh demo|test|ci      (each job needs what the one before it needs, and more)
#
# Each requirement is checked first (pkg-config, command -v), so nothing is installed, and nothing asks
# for a password, when everything is present. Missing packages are installed with apt-get (through
# sudo when not root); on a system without apt-get the script names what to install and exits 1.
# TONEARM_SETUP_DRY_RUN=1 prints the install commands instead of running them.
#
# To add a requirement, add one `need` line below: the first job that needs it, the apt package, and the
# check that passes when it is present.
set -euo pipefail

jobs=(demo test ci)
level() {
    local index
    for index in "${!jobs[@]}"; do [ "${jobs[$index]}" != "$1" ] || { echo "$index"; return; }; done
    echo "usage: scripts/setup-system.sh demo|test|ci" >&2
    exit 2
}
job_level=$(level "${1:-}")

missing=()

# need JOB PACKAGE CHECK...: PACKAGE is required from JOB on unless CHECK succeeds.
need() {
    local from_level package=$2
    from_level=$(level "$1")
    shift 2
    [ "$job_level" -ge "$from_level" ] || return 0
    "$@" >/dev/null 2>&1 || missing+=("$package")
}

has_command() { command -v "$1"; }
has_python_venv() { python3 -m venv --help && python3 -c 'import ensurepip'; }
# pkg-config itself may be the missing piece: then every library it would find counts as missing too.
has_library() { command -v pkg-config && pkg-config --exists "$1"; }

need demo pkg-config has_command pkg-config
need demo libxxhash-dev has_library libxxhash   # the core's XXH3 (Sources/CXXHash)
need demo zlib1g-dev has_library zlib           # decoding gzip/deflate recordings (Sources/CZlib)
need test curl has_command curl                 # a real client of `tonearm serve` in the server tests
need ci python3-venv has_python_venv            # .ci/run's venv for WireMock's Python client
need ci openjdk-17-jre-headless has_command java # WireMock itself, the oracle of scripts/wiremock-diff.py
need ci binutils has_command strip              # scripts/package.sh strips the binary it ships
need ci valgrind has_command valgrind           # scripts/server-instructions.sh --check counts instructions (callgrind)
need ci heaptrack has_command heaptrack_print   # ... and allocations
need ci chromium has_command chromium           # the inspector page's tests in a real browser (Playwright drives it)
need ci openssl has_command openssl             # the Python plugin's tests make a throwaway CA and certificate for their HTTPS upstream

if ! command -v swift >/dev/null 2>&1; then
    echo "setup-system.sh: swift is not on PATH; install Swift 6.1 or later (https://www.swift.org/install/)." >&2
    exit 1
fi

[ ${#missing[@]} -gt 0 ] || exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-system.sh: missing ${missing[*]} (Debian/Ubuntu package names), and this system has no apt-get." >&2
    echo "Install the equivalents with your package manager (pkg-config, the xxHash and zlib development files, curl; for ci python3-venv, a Java 17 runtime and Chromium), then run make again." >&2
    exit 1
fi

as_root=()
if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "setup-system.sh: missing ${missing[*]}; installing them needs root, and sudo is not available." >&2
        echo "As root, run: apt-get update && apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
    as_root=(sudo)
fi

run() {
    if [ "${TONEARM_SETUP_DRY_RUN:-}" = 1 ]; then
        echo "would run: $*"
    else
        "$@"
    fi
}

echo "setup-system.sh: installing ${missing[*]} with apt-get" >&2
run "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
run "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
