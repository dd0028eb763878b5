extension CanonicalWriter {
    /// Validates the number at `pos` against the RFC 8259 grammar and writes its canonical form.
    ///
    /// Three routes, cheapest first:
    /// - **Integer literals** (no fraction, no exponent) are written as they are, `-0` becoming `0`.
    ///   Up to 2^53 this is exactly what RFC 8785 produces, because such integers are doubles and
    ///   ECMAScript prints them in full. Above 2^53 it is a deliberate Tonearm departure from RFC 8785:
    ///   rounding through a double would make `9007199254740993` and `9007199254740992` canonicalise
    ///   alike, so two requests differing only in a large id would wrongly match.
    /// - **Up to 15 significant digits** with a decimal exponent well inside the normal double range:
    ///   every such decimal is the unique 15-digit decimal of its double (DBL_DIG is 15), so the
    ///   shortest round-trip digits are the input's own digits without leading and trailing zeros,
    ///   and only the layout changes. No double, no allocation.
    /// - **Everything else** is read into a `Double` (correctly rounded) and printed with
    ///   `ECMAScriptNumber`; a literal beyond the double range is refused rather than turned into
    ///   infinity, which JSON cannot express.
    mutating func copyNumber() throws(JSONSyntaxError) {
        let start = pos
        var negative = false
        if bytes[pos] == UInt8(ascii: "-") {
            negative = true
            pos += 1
        }
        guard pos < end && Self.isDigit(bytes[pos]) else { throw error(at: pos, "a digit") }
        let digitsStart = pos
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < end && Self.isDigit(bytes[pos]) {
                throw error(at: pos, "'.', 'e' or the end of the number after a leading 0")
            }
        } else {
            skipDigits()
        }
        var isInteger = true
        if pos < end && bytes[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < end && Self.isDigit(bytes[pos]) else { throw error(at: pos, "a digit after '.'") }
            skipDigits()
        }
        if pos < end && bytes[pos] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            pos += 1
            if pos < end && (bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-")) {
                pos += 1
            }
            guard pos < end && Self.isDigit(bytes[pos]) else { throw error(at: pos, "a digit in the exponent") }
            skipDigits()
        }
        if isInteger {
            if pos - digitsStart == 1 && bytes[digitsStart] == UInt8(ascii: "0") {
                out.append(UInt8(ascii: "0"))
            } else {
                out.append(bytes + start, count: pos - start)
            }
            return
        }
        // Integer literals never get longer; the forms below can (`1e20` becomes 21 digits), so
        // they restore the room guarantee the unchecked writes elsewhere rely on.
        defer { restoreSlack() }
        if copyShortDecimal(digitsStart: digitsStart, negative: negative) { return }
        let text = String(
            decoding: UnsafeBufferPointer(start: bytes + start, count: pos - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error(at: start, "a finite number") }
        out.write(upTo: ECMAScriptNumber.maximumLength) { ECMAScriptNumber.write(value, to: $0) }
    }

    /// The allocation-free route for decimals of at most 15 significant digits; returns `false` to
    /// send the number down the `Double` route.
    private mutating func copyShortDecimal(digitsStart: Int, negative: Bool) -> Bool {
        let text = UnsafeRawBufferPointer(start: bytes + digitsStart, count: pos - digitsStart)
        var handled = false
        out.write(upTo: ECMAScriptNumber.maximumLength) { destination in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
                guard let digitBase = digits.baseAddress,
                    let decimal = DecimalText.significantDigits(of: text, into: digitBase, capacity: 15)
                else { return 0 }
                if decimal.count == 0 {
                    handled = true
                    destination[0] = UInt8(ascii: "0")
                    return 1
                }
                // Keep clear of subnormals (fewer digits of precision) and of overflow.
                guard decimal.point >= -306 && decimal.point <= 308 else { return 0 }
                handled = true
                return ECMAScriptNumber.layout(
                    digits: digitBase, count: decimal.count, point: decimal.point, negative: negative,
                    into: destination)
            }
        }
        return handled
    }

    @inline(__always)
    private mutating func skipDigits() {
        while pos < end && Self.isDigit(bytes[pos]) { pos += 1 }
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
