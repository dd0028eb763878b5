/// The byte ranges of a URL's components, split as in RFC 3986 Appendix B:
/// `scheme ":" "//" authority path ["?" query] ["#" fragment]`.
///
/// Splitting only records ranges of the input; normalising each component is left to the code that
/// writes it, so the input is read once and nothing is copied here.
struct URLSplit {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The scheme without its ":", or `nil` for origin-form input.
    var scheme: Range<Int>?
    /// What follows "//" up to the path, or `nil` when there is no "//" after the scheme.
    var authority: Range<Int>?
    /// The last "@" of the authority, which ends any userinfo; found while looking for the authority's end.
    var lastAt: Int?
    /// The last ":" of the authority and how many there are after `lastAt`, from the same pass.
    var lastColon: Int?
    var colons: Int
    var path: Range<Int>
    /// Whether the authority has no ASCII uppercase letter and no "%", so that its host needs no
    /// normalisation; found while looking for the authority's end. `false` only costs a second look.
    var authorityIsNormal: Bool
    /// Whether the path is already normal (see ``URLPath/scan(_:from:to:)``), found while looking for its end.
    var pathIsNormal: Bool
    /// What follows "?" up to any "#", or `nil` without "?".
    var query: Range<Int>?

    /// Leading and trailing spaces and C0 controls are skipped, of the input and before the fragment:
    /// the dropped fragment could otherwise shield trailing spaces that a second normalisation, no
    /// longer seeing the fragment, would strip, and normalising would not be idempotent.
    init(_ bytes: Bytes) {
        var start = 0
        var end = bytes.count
        while start < end && bytes[start] <= 0x20 { start &+= 1 }
        end = Self.trimmedEnd(bytes, start, end)

        var pathStart = start
        scheme = nil
        authority = nil
        lastAt = nil
        lastColon = nil
        colons = 0
        authorityIsNormal = false
        if let schemeEnd = Self.schemeEnd(bytes, from: start, to: end) {
            scheme = start..<schemeEnd
            pathStart = schemeEnd &+ 1
            if pathStart &+ 1 < end && bytes[pathStart] == UInt8(ascii: "/")
                && bytes[pathStart &+ 1] == UInt8(ascii: "/")
            {
                let authorityStart = pathStart &+ 2
                var authorityEnd = authorityStart
                let flags = URLByteClass.table.utf8Start
                var seen: UInt8 = 0
                var sawPercent = false
                while authorityEnd < end {
                    // Skip a run of unreserved bytes, most of any host, with a pointer walk. Safe: the
                    // pointer stays within base + authorityEnd ..< base + end.
                    if let base = bytes.baseAddress {
                        var next = base + authorityEnd
                        let stop = base + end
                        while next < stop {
                            let runFlags = flags[Int(next.pointee)]
                            if runFlags & URLByteClass.unreserved == 0 { break }
                            seen |= runFlags
                            next += 1
                        }
                        authorityEnd = next - base
                        if authorityEnd >= end { break }
                    }
                    let byte = bytes[authorityEnd]
                    let byteFlags = flags[Int(byte)]
                    seen |= byteFlags
                    if byteFlags & URLByteClass.unreserved == 0 {
                        if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") { break }
                        if byte == UInt8(ascii: "%") { sawPercent = true }
                        if byte == UInt8(ascii: "#") {
                            end = Self.trimmedEnd(bytes, authorityStart, authorityEnd)
                            authorityEnd = end
                            break
                        }
                        if byte == UInt8(ascii: "@") {
                            lastAt = authorityEnd
                            colons = 0
                        } else if byte == UInt8(ascii: ":") {
                            lastColon = authorityEnd
                            colons &+= 1
                        }
                    }
                    authorityEnd &+= 1
                }
                authority = authorityStart..<authorityEnd
                authorityIsNormal = seen & URLByteClass.asciiUppercase == 0 && !sawPercent
                pathStart = authorityEnd
            }
        }

        var (pathEnd, pathIsNormal) = URLPath.scan(bytes, from: pathStart, to: end)
        if pathEnd < end && bytes[pathEnd] == UInt8(ascii: "#") {
            end = Self.trimmedEnd(bytes, pathStart, pathEnd)
            pathEnd = end
        }
        path = pathStart..<pathEnd
        self.pathIsNormal = pathIsNormal

        if pathEnd < end && bytes[pathEnd] == UInt8(ascii: "?") {
            let queryStart = pathEnd &+ 1
            var queryEnd = URLBytes.firstIndex(of: UInt8(ascii: "#"), in: bytes, from: queryStart, to: end)
            if queryEnd < end { queryEnd = Self.trimmedEnd(bytes, queryStart, queryEnd) }
            query = queryStart..<queryEnd
        } else {
            query = nil
        }
    }

    /// The index of the ":" ending a valid RFC 3986 §3.1 scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`)
    /// at `start`, or `nil` when the input has no scheme and is origin-form.
    @inline(__always)
    static func schemeEnd(_ bytes: Bytes, from start: Int, to end: Int) -> Int? {
        guard start < end, URLByteClass.isASCIIAlpha(bytes[start]) else { return nil }
        var index = start &+ 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index }
            guard URLByteClass.isASCIIAlpha(byte) || URLByteClass.isASCIIDigit(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return nil }
            index &+= 1
        }
        return nil
    }

    /// `upper` moved back over spaces and C0 controls, not below `lower`.
    @inline(__always)
    static func trimmedEnd(_ bytes: Bytes, _ lower: Int, _ upper: Int) -> Int {
        var end = upper
        while end > lower && bytes[end &- 1] <= 0x20 { end &-= 1 }
        return end
    }
}
