/// Splits an RFC 3986 §3.2 authority into host and port, drops userinfo, and writes the normalised host.
///
/// Userinfo is dropped because credentials in a URL do not select a resource, and a recorded URL must not
/// keep them. Everything up to the last "@" counts as userinfo, as WHATWG parsers do, so that an
/// unencoded "@" in a password cannot leak into the host.
enum URLAuthority {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The host's range in `bytes` and the explicit port, before default ports are dropped, from the
    /// positions of "@" and ":" that ``URLSplit`` noted while finding the authority.
    ///
    /// An IP-literal ("[...]", RFC 3986 §3.2.2) ends at its "]", since its colons are not port separators.
    /// Otherwise the port follows the last ":", but only when the host before it has no other ":":
    /// "a:1:80" has no unambiguous port, and reading 80 from it would let the serialised origin "a:1"
    /// parse back differently. Text that is not a decimal port stays in the host rather than being
    /// thrown away, so that such URLs stay distinct from the host alone.
    static func split(_ bytes: Bytes, _ split: URLSplit) -> (host: Range<Int>, port: Int?) {
        guard let authority = split.authority else { return (0..<0, nil) }
        let start = split.lastAt.map { $0 &+ 1 } ?? authority.lowerBound
        let end = authority.upperBound
        guard start < end else { return (start..<end, nil) }

        let colon: Int
        if bytes[start] == UInt8(ascii: "[") {
            var close = start
            while close < end && bytes[close] != UInt8(ascii: "]") { close &+= 1 }
            let afterClose = close &+ 1
            guard afterClose < end, bytes[afterClose] == UInt8(ascii: ":") else { return (start..<end, nil) }
            colon = afterClose
        } else {
            guard split.colons == 1, let last = split.lastColon else { return (start..<end, nil) }
            colon = last
        }
        // An empty port means the default one (RFC 3986 §6.2.3).
        if colon &+ 1 == end { return (start..<colon, nil) }
        guard let port = decimalPort(bytes, (colon &+ 1)..<end) else { return (start..<end, nil) }
        return (start..<colon, port)
    }

    /// The value of an all-digit port, leading zeros ignored; `nil` for anything else or on overflow.
    /// Values above 65535 are kept: a lenient matcher has no reason to reject what a client sent.
    ///
    /// A percent-escaped digit counts as the digit (`:%38%30` is port 80), as RFC 3986 §6.2.2.2 makes
    /// escapes of unreserved characters equivalent to the characters. Reading it as text instead would
    /// keep ":%38%30" in the host, which the host's escape normalisation turns into ":80", which the
    /// next normalisation reads as the default port and drops: normalising would not be a fixed point.
    @inline(__always)
    static func decimalPort(_ bytes: Bytes, _ range: Range<Int>) -> Int? {
        var value = 0
        var index = range.lowerBound
        while index < range.upperBound {
            var byte = bytes[index]
            if byte == UInt8(ascii: "%"), index &+ 2 < range.upperBound,
                let high = URLByteClass.hexValue(bytes[index &+ 1]), let low = URLByteClass.hexValue(bytes[index &+ 2])
            {
                byte = high &<< 4 | low
                index &+= 2
            }
            guard URLByteClass.isASCIIDigit(byte) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = sum
            index &+= 1
        }
        return value
    }

    /// The port a scheme implies, which RFC 3986 §6.2.3 says to leave out. Only the schemes an HTTP stub
    /// sees; `scheme` may be in any case, since it is checked before it is lowercased.
    @inline(__always)
    static func defaultPort(scheme: Bytes) -> Int? {
        func matches(_ name: StaticString) -> Bool {
            guard scheme.count == name.utf8CodeUnitCount else { return false }
            let expected = name.utf8Start
            for index in 0..<scheme.count where scheme[index] | 0x20 != expected[index] { return false }
            return true
        }
        switch scheme.count {
        case 2: return matches("ws") ? 80 : nil
        case 3: return matches("wss") ? 443 : nil
        case 4: return matches("http") ? 80 : nil
        case 5: return matches("https") ? 443 : nil
        default: return nil
        }
    }

    /// Whether the host is already normal, so it can be copied as it is.
    @inline(__always)
    static func isNormalHost(_ host: Bytes) -> Bool {
        for byte in host where URLByteClass.isASCIIUppercase(byte) || byte == UInt8(ascii: "%") { return false }
        return true
    }

    /// Writes the normalised host: ASCII letters lowercased (RFC 3986 §6.2.2.1) and escapes normalised as
    /// in paths, but nothing else encoded. Non-ASCII bytes stay as they are because there is no IDNA
    /// conversion to map "bücher.example" and its punycode form to one spelling anyway. Needs room for
    /// three bytes per input byte. Callers copy a host that ``isNormalHost(_:)`` instead.
    @inline(__always)
    static func writeHost(_ host: Bytes, into output: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        PercentEncoding.normalizePathBytes(host, into: output, at: start, lowercase: true, encodeDisallowed: false)
    }

    /// Writes ":" and the port in decimal.
    @inline(__always)
    static func writePort(_ port: Int, into output: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        output[start] = UInt8(ascii: ":")
        let digits = decimalDigitCount(port)
        var value = port.magnitude
        var index = start &+ digits
        while index > start {
            output[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
            index &-= 1
        }
        if port < 0 { output[start &+ 1] = UInt8(ascii: "-") }
        return start &+ 1 &+ digits
    }

    /// Digits of `port` in decimal, with a sign for negative values (only possible when set by hand).
    @inline(__always)
    static func decimalDigitCount(_ port: Int) -> Int {
        var value = port.magnitude
        var digits = port < 0 ? 2 : 1
        while value >= 10 {
            value /= 10
            digits &+= 1
        }
        return digits
    }
}
