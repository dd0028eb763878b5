#!/usr/bin/env python3
"""Generate RFC 8785 cross-check vectors with an independent implementation.

Builds seeded random JSON documents (nested objects and arrays, non-ASCII and
supplementary-plane member names, escapes, floats of many magnitudes, integers
within +-(2^53 - 1)), writes each one as JSON text with random whitespace,
member order, escaping and number spelling, and records the canonical form the
PyPI package `rfc8785` (a port of the RFC author's reference code) produces for
the same data. Tonearm's tests then check that its canonicaliser turns every
input into exactly that canonical text.

Integer literals above 2^53 are left out on purpose: Tonearm keeps them verbatim
while RFC 8785 rounds them through a double (see JSONCanonicalizer). For the same
reason floats are always spelled with a '.' or an exponent, so they are never read
as integer literals.

Usage:
    pip install rfc8785
    python3 scripts/generate-rfc8785-vectors.py [OUTPUT] [--count N] [--seed S]

OUTPUT defaults to Tests/TonearmTests/Fixtures/rfc8785-crosscheck.json. The file
is a JSON array of {"input": <JSON text>, "canonical": <RFC 8785 text>} objects,
written with ASCII escapes only, so the file itself survives any editor.
"""

import argparse
import json
import math
import random
import struct
from decimal import Decimal

import rfc8785

# Name and string material, chosen to stress ordering and escaping:
# BMP characters above U+E000 sort after supplementary ones in UTF-16 order.
KEY_PIECES = [
    "a", "b", "z", "A", "Z", "0", "1", "10", "id", "name", "_", "-", "/", " ",
    "\u00e9", "\u00f6", "\u00c5", "A\u030a", "\u20ac", "\u0080", "\u007f",
    "\ufb33", "\uff01", "\ue000", "\uffee", "\u4e2d", "\u6587",
    "\U0001f602", "\U0001f600", "\U00010000", "\U0010fffd", "\U0001d11e",
    "\n", "\r", "\t", "\b", "\f", "\u0000", "\u0001", "\u001f", '"', "\\",
    "</script>", "peach", "p\u00e9ch\u00e9", "p\u00eache",
]

SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}

EDGE_FLOATS = [
    0.0, -0.0, 1.0, -1.0, 0.5, 4.5, 0.1, 0.2, 0.30000000000000004, 1e21, 1e20, 9.999999999999999e20,
    1e-6, 1e-7, 1.5e-7, 0.000001, 0.0000015, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
    333333333.33333329, 1e30, 2e-3, 1e-27, 9007199254740992.0, 123456789.0, 1e16, 1.5e17,
    295147905179352830000.0, 4.4e-7,
]


def random_key(rng):
    return "".join(rng.choice(KEY_PIECES) for _ in range(rng.randint(0, 3)))


def random_string(rng):
    if rng.random() < 0.3:
        return random_key(rng)
    pieces = []
    for _ in range(rng.randint(0, 12)):
        roll = rng.random()
        if roll < 0.55:
            pieces.append(chr(rng.randint(0x20, 0x7E)))
        elif roll < 0.7:
            pieces.append(chr(rng.randint(0xA0, 0xD7FF)))
        elif roll < 0.8:
            pieces.append(chr(rng.randint(0xE000, 0xFFFD)))
        elif roll < 0.9:
            pieces.append(chr(rng.randint(0x10000, 0x10FFFD)))
        else:
            pieces.append(chr(rng.randint(0x00, 0x1F)))
    return "".join(pieces)


def random_float(rng):
    roll = rng.random()
    if roll < 0.2:
        value = rng.choice(EDGE_FLOATS)
    elif roll < 0.4:
        # Arbitrary bit patterns cover subnormals and huge exponents.
        while True:
            value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
            if math.isfinite(value):
                break
    elif roll < 0.55:
        # Short decimals, the common case in real bodies.
        value = round(rng.uniform(-1000, 1000), rng.randint(0, 6))
    else:
        value = rng.random() * 10.0 ** rng.randint(-30, 30)
    if rng.random() < 0.3:
        value = -value
    return value


def random_value(rng, depth):
    roll = rng.random()
    if depth < 5 and roll < 0.2:
        return {random_key(rng): random_value(rng, depth + 1) for _ in range(rng.randint(0, 6))}
    if depth < 5 and roll < 0.35:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    if roll < 0.55:
        return random_string(rng)
    if roll < 0.7:
        return rng.randint(-(2**53) + 1, 2**53 - 1) if rng.random() < 0.3 else rng.randint(-1000, 100000)
    if roll < 0.9:
        return random_float(rng)
    return rng.choice([None, True, False])


def whitespace(rng):
    if rng.random() < 0.6:
        return ""
    return "".join(rng.choice(" \t\n\r") for _ in range(rng.randint(1, 3)))


def hex_escape(rng, unit):
    text = f"{unit:04x}"
    return "\\u" + (text.upper() if rng.random() < 0.5 else text)


def write_string(rng, text):
    out = ['"']
    for char in text:
        code = ord(char)
        must = char in SHORT_ESCAPES or code < 0x20
        if must and char in SHORT_ESCAPES and rng.random() < 0.7:
            out.append(SHORT_ESCAPES[char])
        elif must or rng.random() < 0.1:
            if code >= 0x10000:
                code -= 0x10000
                out.append(hex_escape(rng, 0xD800 + (code >> 10)) + hex_escape(rng, 0xDC00 + (code & 0x3FF)))
            else:
                out.append(hex_escape(rng, code))
        elif char == "/" and rng.random() < 0.5:
            out.append("\\/")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def write_float(rng, value):
    """Some spelling of exactly the same double, never an integer literal."""
    shortest = repr(value)
    roll = rng.random()
    if roll < 0.4:
        return shortest
    if roll < 0.6:
        return ("%.17e" if rng.random() < 0.5 else "%.20E") % value
    sign, digit_tuple, exponent = Decimal(shortest).as_tuple()
    padding = rng.randint(0, 3)  # trailing zeros change the spelling, not the value
    digits = "".join(map(str, digit_tuple)) + "0" * padding
    exponent -= padding
    prefix = "-" if sign else ""
    if roll < 0.8 and -40 < exponent < 25:
        # Plain decimal with a point, possibly with trailing zeros.
        text = format(Decimal(f"{prefix}{digits}E{exponent}"), "f")
        return text if "." in text else text + ".0"
    # Scientific with the point after a random digit and a random exponent marker.
    point = rng.randint(1, len(digits))
    mantissa = digits[:point] + ("." + digits[point:] if point < len(digits) else "")
    if "." not in mantissa and rng.random() < 0.5:
        mantissa += ".0"
    exp = exponent + len(digits) - point
    marker = rng.choice(["e", "E"])
    exp_text = str(exp) if exp < 0 or rng.random() < 0.5 else "+" + str(exp)
    return f"{prefix}{mantissa}{marker}{exp_text}"


def write_value(rng, value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return write_float(rng, value)
    if isinstance(value, str):
        return write_string(rng, value)
    if isinstance(value, list):
        parts = [whitespace(rng) + write_value(rng, item) + whitespace(rng) for item in value]
        return "[" + ",".join(parts) + "]" if parts else "[" + whitespace(rng) + "]"
    items = list(value.items())
    rng.shuffle(items)
    parts = [
        whitespace(rng) + write_string(rng, key) + whitespace(rng) + ":" + whitespace(rng)
        + write_value(rng, item) + whitespace(rng)
        for key, item in items
    ]
    return "{" + ",".join(parts) + "}" if parts else "{" + whitespace(rng) + "}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", nargs="?", default="Tests/TonearmTests/Fixtures/rfc8785-crosscheck.json")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=8785)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    vectors = []
    for index in range(args.count):
        # Mostly objects (request bodies), but every kind of top-level value occurs.
        if index % 10 == 9:
            document = random_value(rng, 3)
        else:
            document = {random_key(rng) + str(i): random_value(rng, 1) for i in range(rng.randint(1, 8))}
        text = whitespace(rng) + write_value(rng, document) + whitespace(rng)
        assert json.loads(text) == document, text  # the spelling must not change the data
        vectors.append({"input": text, "canonical": rfc8785.dumps(document).decode("utf-8")})

    with open(args.output, "w", encoding="ascii") as handle:
        json.dump(vectors, handle, ensure_ascii=True, indent=1)
        handle.write("\n")
    print(f"wrote {len(vectors)} vectors to {args.output}")


if __name__ == "__main__":
    main()
