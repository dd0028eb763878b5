"""`python -m tonearm ARGS` runs the shipped binary with ARGS, for environments whose scripts folder is
not on PATH."""

import os
import sys

from ._binary import find_binary


def main() -> None:
    binary = find_binary()
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
