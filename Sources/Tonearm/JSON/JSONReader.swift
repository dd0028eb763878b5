/// The one strict JSON reader: a pull reader over UTF-8 bytes that hands out one event at a time with
/// the byte offset it started at, so callers build whatever tree they need (`JSONValue` here, the
/// cassette document tree with source positions in TonearmCassettes) without a second parser.
///
/// It is the byte-level counterpart of `CanonicalWriter`: strings are validated (escapes, control
/// characters, UTF-8, surrogate pairs) and decoded, numbers follow the JSON grammar and are handed out
/// as written (text, so nothing is rounded), nesting is bounded, and `skipValue()` validates a value
/// without building anything, for large bodies a caller keeps as a byte range. The reader holds a
/// borrowed buffer: use it inside `withUnsafeBufferPointer`.
package struct JSONReader {
    /// What the reader found next.
    package enum Event: Sendable, Equatable {
        case objectStart
        case objectEnd
        case arrayStart
        case arrayEnd
        /// A member name; the member's value follows.
        case key(String)
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

    private enum State {
        /// A value must come next (the document's, a member's after its `:`, an element after `,`).
        case value
        /// Just after `{`: a member name or `}`.
        case firstMember
        /// Just after `[`: an element or `]`.
        case firstElement
        /// A value just ended: `,` or the container's end, or the end of the document.
        case afterValue
        /// The document's value is complete.
        case done
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let options: Options
    private var position = 0
    private var state = State.value
    /// Whether each open container is an object, innermost last.
    private var containers: [Bool] = []
    /// Where the last event (or skipped value) started.
    package private(set) var eventOffset = 0

    /// A reader positioned before the document in `bytes`.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, options: Options = Options()) {
        self.bytes = bytes
        self.options = options
        if options.skipsByteOrderMark, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
    }

    /// A reader positioned at `offset`, where a value starts (to re-read a value already validated).
    package init(_ bytes: UnsafeBufferPointer<UInt8>, valueAt offset: Int) {
        self.init(bytes)
        position = min(max(offset, 0), bytes.count)
    }

    /// The current byte offset (just after the last event).
    package var offset: Int { position }

    // MARK: - Events

    /// The next event, or `nil` once the document's value is complete and only white space follows.
    package mutating func next() throws(JSONSyntaxError) -> Event? {
        skipWhitespace()
        eventOffset = position
        switch state {
        case .value:
            return try readValue()
        case .firstMember:
            if consume(UInt8(ascii: "}")) { return closeContainer(.objectEnd) }
            return try readKey(first: true)
        case .firstElement:
            if consume(UInt8(ascii: "]")) { return closeContainer(.arrayEnd) }
            return try readValue()
        case .afterValue:
            guard let isObject = containers.last else {
                state = .done
                return try next()
            }
            if consume(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                return closeContainer(isObject ? .objectEnd : .arrayEnd)
            }
            guard consume(UInt8(ascii: ",")) else {
                throw problem(isObject ? "',' or '}' after an object member" : "',' or ']' after an array element")
            }
            skipWhitespace()
            eventOffset = position
            if options.allowsTrailingCommas, consume(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                return closeContainer(isObject ? .objectEnd : .arrayEnd)
            }
            return isObject ? try readKey(first: false) : try readValue()
        case .done:
            guard position == bytes.count else { throw problem("the end of the document") }
            return nil
        }
    }

    /// Validates the value that comes next without building it (where ``next()`` would return a
    /// value's first event) and returns its byte range.
    package mutating func skipValue() throws(JSONSyntaxError) -> Range<Int> {
        skipWhitespace()
        if state == .firstElement || state == .value {
            eventOffset = position
            try skip(depth: containers.count)
            state = containers.isEmpty ? .done : .afterValue
            return eventOffset..<position
        }
        throw problem("a value")
    }

    private mutating func readValue() throws(JSONSyntaxError) -> Event {
        guard position < bytes.count else { throw problem("a JSON value") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try open(isObject: true)
            state = .firstMember
            return .objectStart
        case UInt8(ascii: "["):
            try open(isObject: false)
            state = .firstElement
            return .arrayStart
        case UInt8(ascii: "\""):
            let text = try readString()
            finishValue()
            return .string(text)
        default:
            let event: Event
            if matchLiteral("true") {
                event = .bool(true)
            } else if matchLiteral("false") {
                event = .bool(false)
            } else if matchLiteral("null") {
                event = .null
            } else {
                let start = position
                try skipNumber()
                event = .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
            }
            finishValue()
            return event
        }
    }

    private mutating func readKey(first: Bool) throws(JSONSyntaxError) -> Event {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw problem(first || !options.allowsTrailingCommas ? "a member name in double quotes" : "a member name or '}'")
        }
        let name = try readString()
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { throw problem("':' after the member name") }
        state = .value
        return .key(name)
    }

    private mutating func open(isObject: Bool) throws(JSONSyntaxError) {
        guard containers.count < Self.maximumDepth else {
            throw problem("less deeply nested data (over \(Self.maximumDepth) levels)")
        }
        containers.append(isObject)
        position += 1
    }

    private mutating func closeContainer(_ event: Event) -> Event {
        containers.removeLast()
        finishValue()
        return event
    }

    private mutating func finishValue() {
        state = containers.isEmpty ? .done : .afterValue
    }

    // MARK: - Strings

    /// Reads the string at `position` (its opening quote) and decodes it.
    private mutating func readString() throws(JSONSyntaxError) -> String {
        let (start, end, hasEscapes) = try scanString()
        let content = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if !hasEscapes {
            guard let text = String(validating: content, as: UTF8.self) else {
                throw error(at: start, "valid UTF-8 text in the string", found: nil)
            }
            return text
        }
        return try JSONStringDecoder.decode(content, baseOffset: start, in: bytes)
    }

    /// Moves past a string, checking escapes and control characters; returns its content range.
    private mutating func scanString() throws(JSONSyntaxError) -> (Int, Int, Bool) {
        position += 1
        let start = position
        var hasEscapes = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return (start, position - 1, hasEscapes)
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                position += 1
                guard position < bytes.count else { break }
                switch bytes[position] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 1
                case UInt8(ascii: "u"):
                    guard position + 4 < bytes.count,
                        (1...4).allSatisfy({ URLByteClass.hexValue(bytes[position + $0]) != nil })
                    else { throw problem("four hexadecimal digits after \\u") }
                    position += 5
                default:
                    throw problem("a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)")
                }
                continue
            }
            guard byte >= 0x20 else { throw problem("'\"' to close the string (control characters must be escaped)") }
            position += 1
        }
        throw problem("'\"' to close the string")
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
        default:
            if matchLiteral("true") || matchLiteral("false") || matchLiteral("null") { return }
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
