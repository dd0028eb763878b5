/// A JSON reader over raw bytes that builds a ``DocumentNode`` tree with byte offsets.
///
/// Written for cassettes: it works on a byte buffer (no per-character `String` work), keeps numbers
/// as written, can leave chosen members unbuilt (validated, kept as a byte range) so large JSON bodies
/// cost one scan, and optionally accepts trailing commas (Vinyl cassettes have them).
struct JSONDocumentParser {
    /// Parser settings.
    struct Options: Sendable {
        /// Accept `[1, 2,]` and `{"a": 1,}`.
        var allowsTrailingCommas = false
        /// Members with these names have their values validated but kept as ``DocumentNode/Value/raw``.
        var opaqueKeys: Set<String> = []
    }

    /// Deep nesting is refused rather than risking the stack.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private let options: Options
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, options: Options) {
        self.bytes = bytes
        self.options = options
    }

    /// Parses one JSON document (surrounding whitespace allowed, a UTF-8 byte-order mark skipped).
    static func parse(_ source: DocumentSource, options: Options = Options()) throws(CassetteError) -> DocumentNode {
        let result: Result<DocumentNode, JSONSyntaxProblem> = source.bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONDocumentParser(bytes: buffer, options: options)
            do throws(JSONSyntaxProblem) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let node): return node
        case .failure(let problem):
            throw source.error(at: .offset(problem.offset), path: nil, expected: problem.expected, found: problem.found)
        }
    }

    /// Whether `bytes` is exactly one strict JSON value with no white space outside strings, so that
    /// re-indenting it and compacting it again gives back the same bytes.
    static func isCompactJSON(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONDocumentParser(bytes: buffer, options: Options())
            do throws(JSONSyntaxProblem) {
                try parser.skipValue(depth: 0)
            } catch {
                return false
            }
            return parser.position == buffer.count && !JSONLayout.hasWhitespaceOutsideStrings(buffer)
        }
    }

    /// The byte range of the (already validated) JSON value starting at `offset`, or `nil` when none
    /// starts there; lets a caller keep a value's exact text.
    static func valueRange(in bytes: [UInt8], at offset: Int) -> Range<Int>? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONDocumentParser(bytes: buffer, options: Options())
            parser.position = offset
            do throws(JSONSyntaxProblem) {
                try parser.skipValue(depth: 0)
            } catch {
                return nil
            }
            return offset..<parser.position
        }
    }

    // MARK: Document

    private mutating func parseDocument() throws(JSONSyntaxProblem) -> DocumentNode {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        let node = try parseValue(depth: 0)
        skipWhitespace()
        guard position == bytes.count else { throw problem("the end of the document") }
        return node
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxProblem) -> DocumentNode {
        guard depth < Self.maximumDepth else { throw problem("less deeply nested data (over \(Self.maximumDepth) levels)") }
        guard position < bytes.count else { throw problem("a JSON value") }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "{"): return DocumentNode(value: try parseObject(depth: depth), location: .offset(start))
        case UInt8(ascii: "["): return DocumentNode(value: try parseArray(depth: depth), location: .offset(start))
        case UInt8(ascii: "\""): return DocumentNode(value: .string(try parseString()), location: .offset(start))
        default: return DocumentNode(value: try parseScalar(), location: .offset(start))
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxProblem) -> DocumentNode.Value {
        position += 1
        var members: [DocumentNode.Member] = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw problem(members.isEmpty || !options.allowsTrailingCommas ? "a member name in double quotes" : "a member name or '}'")
            }
            let key = try parseString()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw problem("':' after the member name") }
            skipWhitespace()
            let value: DocumentNode
            if options.opaqueKeys.contains(key) {
                let start = position
                try skipValue(depth: depth + 1)
                value = DocumentNode(value: .raw(start..<position), location: .offset(start))
            } else {
                value = try parseValue(depth: depth + 1)
            }
            members.append(DocumentNode.Member(key: key, value: value))
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            guard consume(UInt8(ascii: ",")) else { throw problem("',' or '}' after an object member") }
            skipWhitespace()
            if options.allowsTrailingCommas, consume(UInt8(ascii: "}")) { return .object(members) }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxProblem) -> DocumentNode.Value {
        position += 1
        var elements: [DocumentNode] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            guard consume(UInt8(ascii: ",")) else { throw problem("',' or ']' after an array element") }
            skipWhitespace()
            if options.allowsTrailingCommas, consume(UInt8(ascii: "]")) { return .array(elements) }
        }
    }

    private mutating func parseScalar() throws(JSONSyntaxProblem) -> DocumentNode.Value {
        if matchLiteral("true") { return .bool(true) }
        if matchLiteral("false") { return .bool(false) }
        if matchLiteral("null") { return .null }
        let start = position
        try skipNumber()
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONSyntaxProblem) -> String {
        let (start, end, hasEscapes) = try scanString()
        let content = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if !hasEscapes {
            guard let text = String(validating: content, as: UTF8.self) else {
                throw JSONSyntaxProblem(offset: start, expected: "valid UTF-8 text in the string", found: nil)
            }
            return text
        }
        return try JSONStringUnescaper.unescape(content, baseOffset: start)
    }

    /// Moves past a string, checking escapes and control characters; returns its content range.
    private mutating func scanString() throws(JSONSyntaxProblem) -> (Int, Int, Bool) {
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
                        (1...4).allSatisfy({ JSONStringUnescaper.hexValue(bytes[position + $0]) != nil })
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

    // MARK: Skipping

    /// Validates one value without building it.
    private mutating func skipValue(depth: Int) throws(JSONSyntaxProblem) {
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

    private mutating func skipContainer(closing: UInt8, depth: Int, isObject: Bool) throws(JSONSyntaxProblem) {
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
            try skipValue(depth: depth + 1)
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
    private mutating func skipNumber() throws(JSONSyntaxProblem) {
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

    // MARK: Bytes

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

    private func problem(_ expected: String) -> JSONSyntaxProblem {
        let found: String
        if position >= bytes.count {
            found = "the end of the data"
        } else {
            let byte = bytes[position]
            found = byte >= 0x20 && byte < 0x7F
                ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
        return JSONSyntaxProblem(offset: position, expected: expected, found: found)
    }
}

/// A syntax error inside the parser, before it is placed in a file.
struct JSONSyntaxProblem: Error {
    var offset: Int
    var expected: String
    var found: String?
}
