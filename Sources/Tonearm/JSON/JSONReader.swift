/// The one strict JSON reader: byte-level, over UTF-8, handing out one token at a time with the byte
/// offset it started at, so callers build whatever tree they need (`JSONValue` here, the cassette
/// document tree with source positions in TonearmCassettes) without a second parser.
///
/// It is the reading counterpart of `CanonicalWriter`: strings are validated (escapes, control
/// characters, UTF-8, surrogate pairs) and decoded, numbers follow the JSON grammar and are handed out
/// as written (text, so nothing is rounded), nesting is bounded, and `skipValue()` validates a value
/// without building anything, for large bodies a caller keeps as a byte range.
///
/// The caller walks the structure, as a recursive descent would: ``value()`` reads a value's first
/// token; after `.objectStart` it calls ``nextKey()`` until `nil`, reading each member's value; after
/// `.arrayStart` it calls ``nextElement()`` until `false`; ``end()`` checks nothing follows the
/// document. Keeping the structure in the caller's recursion, rather than in a state machine here, is
/// what keeps cassette loading as fast as a hand-written parser. The reader holds a borrowed buffer:
/// use it inside `withUnsafeBufferPointer`.
package struct JSONReader {
    /// The first token of a value.
    package enum Token: Sendable, Equatable {
        case objectStart
        case arrayStart
        case string(String)
        /// A number exactly as written, e.g. `"1.50"` or `"12345678901234567890"`.
        case number(String)
        case bool(Bool)
        case null
    }

    /// Reader settings.
    package struct Options: Sendable {
        /// Accept `[1, 2,]` and `{"a": 1,}` (Vinyl cassettes have them).
        package var allowsTrailingCommas = false
        /// Skip a UTF-8 byte-order mark before the document.
        package var skipsByteOrderMark = false

        package init(allowsTrailingCommas: Bool = false, skipsByteOrderMark: Bool = false) {
            self.allowsTrailingCommas = allowsTrailingCommas
            self.skipsByteOrderMark = skipsByteOrderMark
        }
    }

    /// RFC 8259 leaves the limit to implementations; the same as the canonicaliser's.
    package static let maximumDepth = CanonicalWriter.maximumDepth

    private let bytes: UnsafeBufferPointer<UInt8>
    private let options: Options
    private var position = 0
    /// Open containers.
    private var depth = 0
    /// Whether the innermost container was just opened (no member or element read yet).
    private var atContainerStart = false
    /// Where the last value (or skipped value) started.
    package private(set) var valueOffset = 0

    /// A reader positioned before the document in `bytes`.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, options: Options = Options()) {
        self.bytes = bytes
        self.options = options
        if options.skipsByteOrderMark, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
    }

    /// A reader positioned at `offset`, where a value starts (to re-read a value already validated).
    package init(_ bytes: UnsafeBufferPointer<UInt8>, options: Options = Options(), valueAt offset: Int) {
        self.init(bytes, options: options)
        position = min(max(offset, 0), bytes.count)
    }

    // MARK: - Structure

    /// Reads the first token of the value that comes next; ``valueOffset`` is where it starts.
    package mutating func value() throws(JSONSyntaxError) -> Token {
        skipWhitespace()
        valueOffset = position
        guard position < bytes.count else { throw problem("a JSON value") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try open()
            return .objectStart
        case UInt8(ascii: "["):
            try open()
            return .arrayStart
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "t"):
            guard matchLiteral("true") else { throw problem("a JSON value (object, array, string, number, true, false or null)") }
            return .bool(true)
        case UInt8(ascii: "f"):
            guard matchLiteral("false") else { throw problem("a JSON value (object, array, string, number, true, false or null)") }
            return .bool(false)
        case UInt8(ascii: "n"):
            guard matchLiteral("null") else { throw problem("a JSON value (object, array, string, number, true, false or null)") }
            return .null
        default:
            let start = position
            try skipNumber()
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        }
    }

    /// Inside an object: the next member's name (its `:` consumed, its value next), or `nil` once the
    /// object has ended.
    package mutating func nextKey() throws(JSONSyntaxError) -> String? {
        let first = atContainerStart
        guard try advance(closing: UInt8(ascii: "}"), "',' or '}' after an object member") else { return nil }
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw problem(first || !options.allowsTrailingCommas ? "a member name in double quotes" : "a member name or '}'")
        }
        let name = try readString()
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { throw problem("':' after the member name") }
        return name
    }

    /// Inside an array: whether another element follows (read it next), `false` once the array has
    /// ended.
    package mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        try advance(closing: UInt8(ascii: "]"), "',' or ']' after an array element")
    }

    /// Moves past the `,` before the next member or element (none before the first) and returns
    /// `true`, or past the container's `closing` byte (and a trailing comma, when allowed) and returns
    /// `false`.
    @inline(__always)
    private mutating func advance(closing: UInt8, _ separatorExpected: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        let first = atContainerStart
        atContainerStart = false
        if consume(closing) {
            depth -= 1
            return false
        }
        if !first {
            guard consume(UInt8(ascii: ",")) else { throw problem(separatorExpected) }
            skipWhitespace()
            if options.allowsTrailingCommas, consume(closing) {
                depth -= 1
                return false
            }
        }
        return true
    }

    /// Checks that only white space follows the document.
    package mutating func end() throws(JSONSyntaxError) {
        skipWhitespace()
        guard position == bytes.count else { throw problem("the end of the document") }
    }

    /// Validates the value that comes next without building it and returns its byte range.
    package mutating func skipValue() throws(JSONSyntaxError) -> Range<Int> {
        skipWhitespace()
        valueOffset = position
        try skip(depth: depth)
        return valueOffset..<position
    }

    private mutating func open() throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else {
            throw problem("less deeply nested data (over \(Self.maximumDepth) levels)")
        }
        depth += 1
        atContainerStart = true
        position += 1
    }

    // MARK: - Strings

    /// Reads the string at `position` (its opening quote) and decodes it.
    private mutating func readString() throws(JSONSyntaxError) -> String {
        let (start, end, hasEscapes) = try scanString()
        let content = UnsafeBufferPointer(rebasing: bytes[start..<end])
        // `scanString` has validated the UTF-8, so decoding needs no second validation (and avoids
        // `String(validating:)`, whose generic path costs more than the scan).
        if !hasEscapes { return String(decoding: content, as: UTF8.self) }
        return try JSONStringDecoder.decode(content, baseOffset: start, in: bytes)
    }

    /// Moves past a string, checking escapes, control characters and UTF-8; returns its content range.
    ///
    /// Runs of plain ASCII are skipped eight bytes at a time with the canonicaliser's scanner.
    private mutating func scanString() throws(JSONSyntaxError) -> (Int, Int, Bool) {
        guard let base = bytes.baseAddress else { throw problem("a string") }
        let count = bytes.count
        position += 1
        let start = position
        var hasEscapes = false
        while true {
            position = CanonicalWriter.plainRunEnd(base, from: position, end: count)
            guard position < count else { throw problem("'\"' to close the string") }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return (start, position - 1, hasEscapes)
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                position += 1
                guard position < count else { throw problem("'\"' to close the string") }
                switch base[position] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 1
                case UInt8(ascii: "u"):
                    guard position + 4 < count,
                        (1...4).allSatisfy({ URLByteClass.hexValue(base[position + $0]) != nil })
                    else { throw problem("four hexadecimal digits after \\u") }
                    position += 5
                default:
                    throw problem("a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)")
                }
            } else if byte < 0x20 {
                throw problem("'\"' to close the string (control characters must be escaped)")
            } else {
                let length = CanonicalWriter.utf8SequenceLength(base, at: position, end: count)
                guard length > 0 else { throw problem("valid UTF-8 text in the string") }
                position += length
            }
        }
    }

    // MARK: - Skipping

    private mutating func skip(depth: Int) throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else { throw problem("less deeply nested data (over \(Self.maximumDepth) levels)") }
        guard position < bytes.count else { throw problem("a JSON value") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try skipContainer(closing: UInt8(ascii: "}"), depth: depth, isObject: true)
        case UInt8(ascii: "["):
            try skipContainer(closing: UInt8(ascii: "]"), depth: depth, isObject: false)
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            guard matchLiteral("true") || matchLiteral("false") || matchLiteral("null") else {
                throw problem("a JSON value (object, array, string, number, true, false or null)")
            }
        default:
            try skipNumber()
        }
    }

    private mutating func skipContainer(closing: UInt8, depth: Int, isObject: Bool) throws(JSONSyntaxError) {
        position += 1
        skipWhitespace()
        if consume(closing) { return }
        while true {
            if isObject {
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw problem("a member name in double quotes")
                }
                _ = try scanString()
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { throw problem("':' after the member name") }
                skipWhitespace()
            }
            try skip(depth: depth + 1)
            skipWhitespace()
            if consume(closing) { return }
            guard consume(UInt8(ascii: ",")) else {
                throw problem(isObject ? "',' or '}' after an object member" : "',' or ']' after an array element")
            }
            skipWhitespace()
            if options.allowsTrailingCommas, consume(closing) { return }
        }
    }

    /// Moves past a number per the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func skipNumber() throws(JSONSyntaxError) {
        let start = position
        _ = consume(UInt8(ascii: "-"))
        guard position < bytes.count, isDigit(bytes[position]) else {
            position = start
            throw problem("a JSON value (object, array, string, number, true, false or null)")
        }
        if bytes[position] == UInt8(ascii: "0") { position += 1 } else { skipDigits() }
        if consume(UInt8(ascii: ".")) {
            guard position < bytes.count, isDigit(bytes[position]) else { throw problem("a digit after '.'") }
            skipDigits()
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard position < bytes.count, isDigit(bytes[position]) else { throw problem("a digit in the exponent") }
            skipDigits()
        }
    }

    // MARK: - Bytes

    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for index in 0..<count where bytes[position + index] != pointer[index] { return false }
        position += count
        return true
    }

    // MARK: - Errors

    @inline(never)
    private func problem(_ expected: String) -> JSONSyntaxError {
        let found: String
        if position >= bytes.count {
            found = "the end of the data"
        } else {
            let byte = bytes[position]
            found = byte >= 0x20 && byte < 0x7F
                ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
        return error(at: position, expected, found: found)
    }

    @inline(never)
    private func error(at offset: Int, _ expected: String, found: String?) -> JSONSyntaxError {
        var error = JSONSyntaxError(at: offset, in: UnsafeRawBufferPointer(bytes), expected: expected)
        error.found = found
        return error
    }
}
