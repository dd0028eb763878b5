#!/usr/bin/env python3
"""Builds the `tonearm` wheel: the Python package in python/tonearm plus a built `tonearm` binary.

    python3 python/build_wheel.py --binary PATH/tonearm --out dist

Needs nothing beyond the standard library: a wheel is a zip holding the files, a METADATA, a WHEEL and
a RECORD of every file's hash. The binary goes where ruff and uv put theirs, in the `.data/scripts`
folder, so installing the wheel puts `tonearm` in the environment's bin/ directory.

The version is the binary's (`tonearm --version`, from Sources/TonearmCLI/TonearmVersion.swift). The
platform tag is worked out from the binary itself: `manylinux_2_28_x86_64` when it needs nothing newer
than glibc 2.28 and the libraries that policy allows (PEP 600, auditwheel's manylinux_2_28 policy),
else `linux_x86_64`, which pip installs on any Linux x86-64 but PyPI does not accept; the reasons are
printed. A binary built on Debian 12 needs GLIBC_2.35, GLIBCXX_3.4.30 and libz.so.1, so it gets
`linux_x86_64`; building in a manylinux_2_28 image with zlib linked statically would earn the other tag.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import re
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
SOURCES = Path(__file__).resolve().parent / "tonearm"
NAME = "tonearm"
# Zip entries get one fixed date, so the same inputs give the same wheel byte for byte.
FIXED_DATE = (1980, 1, 1, 0, 0, 0)

# auditwheel's manylinux_2_28 policy for x86_64: the libraries a wheel may expect the system to have,
# and the newest symbol version of each it may use.
MANYLINUX_2_28_LIBRARIES = {
    "libgcc_s.so.1", "libstdc++.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libc.so.6",
    "libnsl.so.1", "libutil.so.1", "libpthread.so.0", "libresolv.so.2", "libX11.so.6", "libXext.so.6",
    "libXrender.so.1", "libICE.so.6", "libSM.so.6", "libGL.so.1", "libgobject-2.0.so.0",
    "libgthread-2.0.so.0", "libglib-2.0.so.0", "ld-linux-x86-64.so.2",
}
MANYLINUX_2_28_NEWEST = {"GLIBC": (2, 28), "GLIBCXX": (3, 4, 24), "CXXABI": (1, 3, 11), "GCC": (7, 0, 0)}


def elf_dependencies(binary: bytes) -> tuple[list[str], list[str]]:
    """The libraries an x86-64 ELF file needs (DT_NEEDED) and the symbol versions it needs from them
    (GLIBC_2.34, …), read from its section headers."""
    if binary[:4] != b"\x7fELF" or binary[4] != 2 or binary[5] != 1:
        raise SystemExit("build_wheel: the binary is not a 64-bit little-endian ELF file")
    section_offset, = struct.unpack_from("<Q", binary, 0x28)
    entry_size, count = struct.unpack_from("<HH", binary, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", binary, section_offset + index * entry_size)
                for index in range(count)]

    def string(table: int, offset: int) -> str:
        start = sections[table][4] + offset
        return binary[start:binary.index(b"\0", start)].decode()

    libraries, versions = [], []
    for _name, kind, _flags, _address, offset, size, link, info, _align, _entry in sections:
        if kind == 6:  # SHT_DYNAMIC: DT_NEEDED entries name the libraries
            for position in range(offset, offset + size, 16):
                tag, value = struct.unpack_from("<qQ", binary, position)
                if tag == 0:
                    break
                if tag == 1:
                    libraries.append(string(link, value))
        elif kind == 0x6FFFFFFE:  # SHT_GNU_verneed: per library, the versions needed from it
            position = offset
            for _ in range(info):
                _version, needed, _file, auxiliary, following = struct.unpack_from("<HHIII", binary, position)
                entry = position + auxiliary
                for _ in range(needed):
                    _hash, _flags2, _other, name, next_entry = struct.unpack_from("<IHHII", binary, entry)
                    versions.append(string(link, name))
                    entry += next_entry
                position += following
    return libraries, versions


def platform_tag(binary: bytes) -> tuple[str, list[str]]:
    """The wheel's platform tag for `binary`, and why it is not manylinux_2_28 when it is not."""
    libraries, versions = elf_dependencies(binary)
    reasons = [f"needs {library}, which the manylinux_2_28 policy does not allow"
               for library in libraries if library not in MANYLINUX_2_28_LIBRARIES]
    newest: dict = {}
    for version in versions:
        match = re.fullmatch(r"([A-Z]+)_([0-9.]+)", version)
        if match and match.group(1) in MANYLINUX_2_28_NEWEST:
            number = tuple(int(part) for part in match.group(2).split("."))
            newest[match.group(1)] = max(newest.get(match.group(1), number), number)
    for family, number in sorted(newest.items()):
        if number > MANYLINUX_2_28_NEWEST[family]:
            reasons.append(f"needs {family}_{'.'.join(map(str, number))}, newer than manylinux_2_28 allows "
                           f"({family}_{'.'.join(map(str, MANYLINUX_2_28_NEWEST[family]))})")
    return ("linux_x86_64" if reasons else "manylinux_2_28_x86_64"), reasons


def readme_section() -> str:
    """README's "From other languages" section: the wheel's description on PyPI."""
    readme = (PACKAGE_ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## From other languages\n(.*?)(?=^## )", readme, re.S | re.M)
    if not match:
        raise SystemExit("build_wheel: README.md has no '## From other languages' section")
    return "# Tonearm\n" + match.group(1).strip() + "\n"


def record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build(binary_path: Path, out: Path) -> Path:
    result = subprocess.run([str(binary_path), "--version"], capture_output=True, text=True, check=False)
    version = result.stdout.strip()
    if result.returncode != 0 or not re.fullmatch(r"\d+(\.\d+)*", version):
        raise SystemExit(f"build_wheel: {binary_path} --version gave {version!r} (status {result.returncode}): "
                         f"{result.stderr.strip()}")
    binary = binary_path.read_bytes()
    tag, reasons = platform_tag(binary)
    for reason in reasons:
        print(f"build_wheel: {tag}, not manylinux_2_28: the binary {reason}", file=sys.stderr)

    dist_info = f"{NAME}-{version}.dist-info"
    files: list[tuple[str, bytes, int]] = []
    for source in sorted(SOURCES.rglob("*")):
        if source.is_file() and "__pycache__" not in source.parts:
            files.append((f"{NAME}/{source.relative_to(SOURCES).as_posix()}", source.read_bytes(), 0o644))
    files.append((f"{NAME}-{version}.data/scripts/tonearm", binary, 0o755))
    metadata = "\n".join([
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {version}",
        "Summary: HTTP record/replay for tests in any language: the tonearm server, a Python API and a pytest plugin",
        "Requires-Python: >=3.9",
        "Provides-Extra: pytest",
        "Requires-Dist: pytest>=7.0; extra == \"pytest\"",
        "Classifier: Framework :: Pytest",
        "Classifier: Operating System :: POSIX :: Linux",
        "Classifier: Programming Language :: Python :: 3",
        "Description-Content-Type: text/markdown",
        "",
        readme_section(),
    ])
    wheel = "\n".join(["Wheel-Version: 1.0", "Generator: tonearm python/build_wheel.py",
                       "Root-Is-Purelib: false", f"Tag: py3-none-{tag}", ""])
    entry_points = "[pytest11]\ntonearm = tonearm.pytest_plugin\n"
    files += [(f"{dist_info}/METADATA", metadata.encode(), 0o644),
              (f"{dist_info}/WHEEL", wheel.encode(), 0o644),
              (f"{dist_info}/entry_points.txt", entry_points.encode(), 0o644)]
    record = [record_line(path, data) for path, data, _ in files] + [f"{dist_info}/RECORD,,"]
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))

    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{NAME}-{version}-py3-none-{tag}.whl"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, data, mode in files:
            entry = zipfile.ZipInfo(path, date_time=FIXED_DATE)
            entry.external_attr = (0o100000 | mode) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    target.write_bytes(buffer.getvalue())
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=Path, required=True, help="the tonearm executable to ship")
    parser.add_argument("--out", type=Path, default=PACKAGE_ROOT / "dist", help="the folder to write the wheel to")
    arguments = parser.parse_args()
    print(build(arguments.binary, arguments.out))


if __name__ == "__main__":
    main()
