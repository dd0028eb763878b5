#!/usr/bin/env python3
"""Condenses `swift package benchmark` text output into one line per benchmark and metric: the p50 (and
p99), in the unit the table states, with times also given in nanoseconds per operation.

    swift package benchmark --no-progress 2>&1 | tee results.txt
    python3 Scripts/summarize.py results.txt

Used to fill in docs/benchmarks.md; time rows marked `*` are already per request (the benchmark's
scaling factor divides them), rows of benchmarks named `x100`/`x1000` are per 100/1,000 operations.
"""
import re
import sys

UNITS = {"ns": 1.0, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def number(text):
    text = text.strip()
    try:
        return float(text)
    except ValueError:
        return None


def rows(lines):
    name = None
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip() or line[0] in "╒╞├╘═=":
            continue
        if line.startswith("│"):
            cells = [cell.strip() for cell in line.strip("│").split("│")]
            if name is None or cells[0] == "Metric" or len(cells) < 9:
                continue
            yield name, cells
        else:
            name = line.strip()


def main(path):
    with open(path, encoding="utf-8") as handle:
        lines = handle.readlines()
    for name, cells in rows(lines):
        metric = cells[0]
        p50, p99 = number(cells[3]), number(cells[6])
        if p50 is None:
            continue
        unit = re.search(r"\((ns|μs|us|ms|s)\)", metric)
        extra = ""
        if unit and "Time" in metric:
            extra = f"  = {p50 * UNITS[unit.group(1)]:,.0f} ns"
        print(f"{name:55} {metric:32} p50 {cells[3]:>12} p99 {cells[6]:>12}{extra}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/dev/stdin")
