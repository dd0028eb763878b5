/// Reads JSONPath text into segments (see ``JSONPath`` for the dialect). Works on Unicode scalars;
/// offsets in errors count them.
struct JSONPathParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    /// Filters nest (`[?(@.a[?(@.b)])]`); bounded so hostile input cannot exhaust the stack.
    private var depth = 0
    private static let maximumDepth = 64

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The whole expression: `$` and its segments.
    mutating func path() throws(JSONPathError) -> [JSONPathSegment] {
        skipSpace()
        guard take("$") else { throw problem("`$` at the start of the path") }
        let segments = try segments()
        skipSpace()
        guard position == scalars.count else { throw problem("`.`, `..` or `[` (functions such as length() are not supported)") }
        return segments
    }

    // MARK: Segments

    /// Segments for as long as they continue: to the end of the text, or (in a filter) up to what
    /// follows the operand.
    private mutating func segments() throws(JSONPathError) -> [JSONPathSegment] {
        var segments: [JSONPathSegment] = []
        while let scalar = peek() {
            if scalar == "." && peek(at: 1) == "." {
                position += 2
                segments.append(.descendants(peek() == "[" ? try bracket() : try dotSelector()))
            } else if scalar == "." {
                position += 1
                // Jayway accepts `.['name']` as well as `['name']`.
                segments.append(.child(peek() == "[" ? try bracket() : try dotSelector()))
            } else if scalar == "[" {
                segments.append(.child(try bracket()))
            } else {
                break
            }
        }
        return segments
    }

    /// After `.`: a name or `*`.
    private mutating func dotSelector() throws(JSONPathError) -> JSONPathSelector {
        if take("*") { return .wildcard }
        let start = position
        while let scalar = peek(), !". [()]=!<>&|,'\"".unicodeScalars.contains(scalar) { position += 1 }
        guard position > start else { throw problem("a member name or `*` after `.`") }
        if peek() == "(" { throw problem("a member name (functions such as \(String(String.UnicodeScalarView(scalars[start..<position])))() are not supported)") }
        return .names([String(String.UnicodeScalarView(scalars[start..<position]))])
    }

    /// `[...]`: names, indices, `*`, a slice or a filter.
    private mutating func bracket() throws(JSONPathError) -> JSONPathSelector {
        guard take("[") else { throw problem("`[`") }
        skipSpace()
        let selector: JSONPathSelector
        if take("*") {
            selector = .wildcard
        } else if take("?") {
            skipSpace()
            guard take("(") else { throw problem("`(` after `[?`") }
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw problem("at most \(Self.maximumDepth) nested filters") }
            let filter = try orExpression()
            skipSpace()
            guard take(")") else { throw problem("`)` closing the filter") }
            selector = .filter(filter)
        } else if peek() == "'" || peek() == "\"" {
            var names = [try quoted()]
            skipSpace()
            while take(",") {
                skipSpace()
                names.append(try quoted())
                skipSpace()
            }
            selector = .names(names)
        } else {
            selector = try indicesOrSlice()
        }
        skipSpace()
        guard take("]") else { throw problem("`]`") }
        return selector
    }

    private mutating func indicesOrSlice() throws(JSONPathError) -> JSONPathSelector {
        let first = try optionalInteger()
        skipSpace()
        if take(":") {
            skipSpace()
            let end = try optionalInteger()
            skipSpace()
            var step = 1
            if take(":") {
                skipSpace()
                step = try optionalInteger() ?? 1
                guard step != 0 else { throw problem("a slice step other than 0") }
            }
            return .slice(start: first, end: end, step: step)
        }
        guard let first else { throw problem("an index, a quoted name, `*`, a slice or `?(` filter") }
        var indices = [first]
        while take(",") {
            skipSpace()
            guard let next = try optionalInteger() else { throw problem("an index after `,`") }
            indices.append(next)
            skipSpace()
        }
        return .indices(indices)
    }

    private mutating func optionalInteger() throws(JSONPathError) -> Int? {
        let start = position
        _ = take("-")
        while let scalar = peek(), ("0"..."9").contains(scalar) { position += 1 }
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        if text.isEmpty { return nil }
        guard let value = Int(text) else { throw problem("an integer that fits 64 bits", at: start) }
        return value
    }

    /// A string in single or double quotes, with `\` escaping the next character.
    private mutating func quoted() throws(JSONPathError) -> String {
        guard let quote = peek(), quote == "'" || quote == "\"" else { throw problem("a quoted name") }
        position += 1
        var text = String.UnicodeScalarView()
        while let scalar = peek() {
            position += 1
            if scalar == quote { return String(text) }
            if scalar == "\\", let escaped = peek() {
                position += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                default: text.append(escaped)
                }
                continue
            }
            text.append(scalar)
        }
        throw problem("the closing \(quote)")
    }

    // MARK: Filters

    private mutating func orExpression() throws(JSONPathError) -> JSONPathFilter {
        var left = try andExpression()
        while true {
            skipSpace()
            guard take("||") else { return left }
            left = .or(left, try andExpression())
        }
    }

    private mutating func andExpression() throws(JSONPathError) -> JSONPathFilter {
        var left = try unaryExpression()
        while true {
            skipSpace()
            guard take("&&") else { return left }
            left = .and(left, try unaryExpression())
        }
    }

    private mutating func unaryExpression() throws(JSONPathError) -> JSONPathFilter {
        skipSpace()
        if peek() == "!", peek(at: 1) != "=" {
            position += 1
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw problem("at most \(Self.maximumDepth) nested negations") }
            return .not(try unaryExpression())
        }
        if take("(") {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw problem("at most \(Self.maximumDepth) nested parentheses") }
            let inner = try orExpression()
            skipSpace()
            guard take(")") else { throw problem("`)`") }
            return inner
        }
        let left = try operand()
        skipSpace()
        if take("=~") {
            skipSpace()
            return .matches(left, try regex())
        }
        for comparison in JSONPathComparisonOperator.allCases where take(comparison.rawValue) {
            skipSpace()
            return .compare(left, comparison, try operand())
        }
        if case .literal = left { throw problem("a comparison after a literal") }
        return .exists(left)
    }

    private mutating func operand() throws(JSONPathError) -> JSONPathOperand {
        skipSpace()
        guard let scalar = peek() else { throw problem("a value: `@`, `$` or a literal") }
        switch scalar {
        case "@":
            position += 1
            return .relative(try segments())
        case "$":
            position += 1
            return .absolute(try segments())
        case "'", "\"":
            return .literal(.string(try quoted()))
        default:
            for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] where take(word) {
                return .literal(value)
            }
            let start = position
            while let next = peek(), "-+.eE0123456789".unicodeScalars.contains(next) { position += 1 }
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            guard !text.isEmpty, Double(text) != nil else { throw problem("a value: `@`, `$`, a string, a number, true, false or null", at: start) }
            return .literal(.number(text))
        }
    }

    /// `/regex/flags`, as a pattern that must match the whole value (Java's `matches()`); flag `i`
    /// ignores case.
    private mutating func regex() throws(JSONPathError) -> LinearPattern {
        let start = position
        guard take("/") else { throw problem("a regular expression in slashes, e.g. /ab.*/i") }
        var body = String.UnicodeScalarView()
        while let scalar = peek(), scalar != "/" {
            position += 1
            body.append(scalar)
            if scalar == "\\", let escaped = peek() {
                position += 1
                body.append(escaped)
            }
        }
        guard take("/") else { throw problem("the closing `/` of the regular expression") }
        var flags = ""
        while let scalar = peek(), ("a"..."z").contains(scalar) {
            position += 1
            flags.unicodeScalars.append(scalar)
        }
        let prefix = flags.contains("i") ? "(?i)" : ""
        do {
            return try LinearPattern("^(?:\(prefix)\(String(body)))\\z")
        } catch {
            throw problem("a usable regular expression (\(error.message))", at: start)
        }
    }

    // MARK: Scanning

    private func peek(at offset: Int = 0) -> Unicode.Scalar? {
        let index = position + offset
        return index < scalars.count ? scalars[index] : nil
    }

    private mutating func take(_ text: String) -> Bool {
        let wanted = Array(text.unicodeScalars)
        guard position + wanted.count <= scalars.count, Array(scalars[position..<position + wanted.count]) == wanted else { return false }
        position += wanted.count
        return true
    }

    private mutating func skipSpace() {
        while let scalar = peek(), scalar == " " || scalar == "\t" { position += 1 }
    }

    private func problem(_ expected: String, at offset: Int? = nil) -> JSONPathError {
        JSONPathError(offset: offset ?? position, message: "expected \(expected)")
    }
}
