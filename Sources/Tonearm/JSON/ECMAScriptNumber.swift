/// The number serialisation that RFC 8785 borrows from ECMAScript (`Number::toString`, ECMA-262
/// 7.1.12.1), so that every JCS implementation prints a given IEEE-754 double identically.
///
/// The shortest round-trip digits come from Swift's own `Double.description`, which uses an
/// algorithm (SwiftDtoa) that yields the shortest digit string that reads back as the same double
/// and, among equally short ones, the closest: exactly what ECMAScript asks for. Only the layout of
/// those digits (where the point goes, when to switch to exponent form, how the exponent is written)
/// differs from Swift's, and that layout is done here.
package enum ECMAScriptNumber {
    /// The ECMAScript `Number::toString` form of `value`, e.g. `1e+30`, `0.000001`, `1e-7`,
    /// `100000000000000000000` for 1e20, and `0` for both zeros.
    ///
    /// JSON has no way to write NaN or an infinity, so for those (which the caller should never pass)
    /// this returns `null`, the same text `JSON.stringify` produces, rather than trapping.
    package static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
            guard let start = buffer.baseAddress else { return "null" }
            let length = write(value, to: start)
            return String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
        }
    }

    /// Upper bound of any text `write` or `layout` produces: a sign, 21 integer digits, or `0.` with
    /// five zeros and 17 digits, or `d.` with 16 digits and `e+308`.
    static let maximumLength = 32

    /// The most significant digits a double ever needs to round-trip.
    static let maximumDigits = 17

    /// Writes the form of the finite `value` to `out` (room for `maximumLength` bytes) and returns
    /// the number of bytes written.
    static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if value == 0 || !value.isFinite {
            // Both zeros print as "0"; non-finite values never reach here from the parser.
            out[0] = UInt8(ascii: "0")
            return 1
        }
        var text = value.magnitude.description
        return text.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumDigits + 8) { digits in
                guard let digitBase = digits.baseAddress,
                    let decimal = DecimalText.significantDigits(
                        of: UnsafeRawBufferPointer(utf8), into: digitBase, capacity: digits.count),
                    decimal.count > 0
                else {
                    out[0] = UInt8(ascii: "0")
                    return 1
                }
                return layout(
                    digits: digitBase, count: decimal.count, point: decimal.point,
                    negative: value < 0, into: out)
            }
        }
    }

    /// Lays out the value `0.d₁d₂…dₖ × 10ⁿ` the way ECMA-262 7.1.12.1 steps 6–10 do.
    ///
    /// - Parameters:
    ///   - digits: `k` ASCII digits without leading or trailing zeros (1 ≤ k ≤ 17).
    ///   - point: `n`, the position of the decimal point relative to the first digit.
    ///   - out: room for `maximumLength` bytes.
    /// - Returns: the number of bytes written.
    static func layout(
        digits: UnsafePointer<UInt8>, count k: Int, point n: Int, negative: Bool,
        into out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var index = 0
        if negative {
            out[0] = UInt8(ascii: "-")
            index = 1
        }
        if k <= n && n <= 21 {
            // An integer: the digits followed by n − k zeros.
            (out + index).update(from: digits, count: k)
            index += k
            for _ in 0..<(n - k) {
                out[index] = UInt8(ascii: "0")
                index += 1
            }
        } else if 0 < n && n <= 21 {
            // The point falls inside the digits.
            (out + index).update(from: digits, count: n)
            index += n
            out[index] = UInt8(ascii: ".")
            index += 1
            (out + index).update(from: digits + n, count: k - n)
            index += k - n
        } else if -6 < n && n <= 0 {
            // Small magnitudes down to 1e-6 keep the plain form: 0.000ddd.
            out[index] = UInt8(ascii: "0")
            out[index + 1] = UInt8(ascii: ".")
            index += 2
            for _ in 0..<(-n) {
                out[index] = UInt8(ascii: "0")
                index += 1
            }
            (out + index).update(from: digits, count: k)
            index += k
        } else {
            // Exponent form d.ddde±x, with an explicit "+" as ECMAScript requires.
            out[index] = digits[0]
            index += 1
            if k > 1 {
                out[index] = UInt8(ascii: ".")
                index += 1
                (out + index).update(from: digits + 1, count: k - 1)
                index += k - 1
            }
            let exponent = n - 1
            out[index] = UInt8(ascii: "e")
            out[index + 1] = exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            index += 2
            let magnitude = Int(exponent.magnitude)
            var divisor = 1
            while divisor <= magnitude / 10 { divisor *= 10 }
            while divisor > 0 {
                out[index] = UInt8(truncatingIfNeeded: magnitude / divisor % 10) + UInt8(ascii: "0")
                index += 1
                divisor /= 10
            }
        }
        return index
    }
}

/// Reading the digits out of decimal text, shared by the parser's fast path (JSON number text) and by
/// `ECMAScriptNumber` (Swift's `description` output, which uses the same grammar).
enum DecimalText {
    /// Significant digits of unsigned decimal text `ddd[.ddd][e[±]ddd]`.
    ///
    /// Leading and trailing zeros are dropped so the digits can be laid out directly; `point` is `n`
    /// in `0.d₁…dₖ × 10ⁿ`. Returns `nil` when more than `capacity` significant digits are present
    /// (the caller then goes through `Double`). A value of zero gives `count == 0`.
    static func significantDigits(
        of text: UnsafeRawBufferPointer, into digits: UnsafeMutablePointer<UInt8>, capacity: Int
    ) -> (count: Int, point: Int)? {
        var count = 0
        var pendingZeros = 0
        var seen = 0  // digits before the exponent, leading zeros included
        var firstSignificant = -1
        var pointAt = -1
        var index = 0
        let end = text.count
        while index < end {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                pointAt = seen
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if byte == UInt8(ascii: "0") {
                    if firstSignificant >= 0 { pendingZeros += 1 }
                } else {
                    if firstSignificant < 0 { firstSignificant = seen }
                    if count + pendingZeros + 1 > capacity { return nil }
                    for _ in 0..<pendingZeros {
                        digits[count] = UInt8(ascii: "0")
                        count += 1
                    }
                    pendingZeros = 0
                    digits[count] = byte
                    count += 1
                }
                seen += 1
            } else {
                break  // 'e' or 'E'
            }
            index += 1
        }
        if firstSignificant < 0 { return (0, 0) }
        if pointAt < 0 { pointAt = seen }
        var exponent = 0
        if index < end {
            index += 1  // past 'e'
            var negative = false
            if index < end && (text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+")) {
                negative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < end {
                let digit = Int(text[index] &- UInt8(ascii: "0"))
                // Saturate: anything this large is out of range for a double anyway.
                if exponent < 1_000_000 { exponent = exponent * 10 + digit }
                index += 1
            }
            if negative { exponent = -exponent }
        }
        return (count, pointAt - firstSignificant + exponent)
    }
}
