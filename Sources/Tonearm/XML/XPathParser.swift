/// Parses the XPath subset of ``XPathExpression`` (XPath 1.0's grammar, with its rule that `*` and
/// `and`/`or`/`div`/`mod` are operators after an operand).
struct XPathParser {
    enum Token: Equatable {
        case number(Double), literal(String), name(String), symbol(String), end
    }

    static let functions: [String: ClosedRange<Int>] = [
        "last": 0...0, "position": 0...0, "count": 1...1, "local-name": 0...1, "name": 0...1, "namespace-uri": 0...1,
        "string": 0...1, "concat": 2...64, "starts-with": 2...2, "contains": 2...2, "substring-before": 2...2,
        "substring-after": 2...2, "substring": 2...3, "string-length": 0...1, "normalize-space": 0...1, "translate": 3...3,
        "not": 1...1, "true": 0...0, "false": 0...0, "boolean": 1...1, "number": 0...1, "sum": 1...1, "floor": 1...1,
        "ceiling": 1...1, "round": 1...1,
    ]

    private var tokens: [(token: Token, offset: Int)] = []
    private var index = 0
    private var lexError: XPathError?
    private var depth = 0

    /// The most tokens an expression may have: evaluation recurses on the expression's tree, so its
    /// size is bounded (a chain `1+1+…` is as deep as it is long).
    static let maximumTokens = 1_024

    init(_ text: String) {
        do {
            tokens = try Self.lex(Array(text.unicodeScalars))
            if tokens.count > Self.maximumTokens + 2 {
                lexError = XPathError(offset: 0, message: "an expression of at most \(Self.maximumTokens) tokens")
            }
        } catch {
            lexError = error
        }
    }

    private var current: Token { tokens[index].token }
    private var offset: Int { tokens[index].offset }

    private func fail(_ message: String) -> XPathError { XPathError(offset: offset, message: message) }

    private mutating func take(_ symbol: String) -> Bool {
        if current == .symbol(symbol) {
            index += 1
            return true
        }
        return false
    }

    private mutating func expect(_ symbol: String) throws(XPathError) {
        guard take(symbol) else { throw fail("expected '\(symbol)'") }
    }

    mutating func expression() throws(XPathError) -> XPathSyntax {
        if let lexError { throw lexError }
        let expression = try orExpression()
        guard current == .end else { throw fail("expected an operator or the end of the expression") }
        return expression
    }

    private mutating func orExpression() throws(XPathError) -> XPathSyntax {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { throw fail("an expression nested less than 64 deep") }
        var left = try andExpression()
        while take("or") { left = .binary("or", left, try andExpression()) }
        return left
    }

    private mutating func andExpression() throws(XPathError) -> XPathSyntax {
        var left = try equality()
        while take("and") { left = .binary("and", left, try equality()) }
        return left
    }

    private mutating func equality() throws(XPathError) -> XPathSyntax {
        var left = try relational()
        while case .symbol(let op) = current, op == "=" || op == "!=" {
            index += 1
            left = .binary(op, left, try relational())
        }
        return left
    }

    private mutating func relational() throws(XPathError) -> XPathSyntax {
        var left = try additive()
        while case .symbol(let op) = current, ["<", "<=", ">", ">="].contains(op) {
            index += 1
            left = .binary(op, left, try additive())
        }
        return left
    }

    private mutating func additive() throws(XPathError) -> XPathSyntax {
        var left = try multiplicative()
        while case .symbol(let op) = current, op == "+" || op == "-" {
            index += 1
            left = .binary(op, left, try multiplicative())
        }
        return left
    }

    private mutating func multiplicative() throws(XPathError) -> XPathSyntax {
        var left = try unary()
        while case .symbol(let op) = current, op == "*" || op == "div" || op == "mod" {
            index += 1
            left = .binary(op, left, try unary())
        }
        return left
    }

    private mutating func unary() throws(XPathError) -> XPathSyntax {
        // Minus signs are counted, not recursed on: `----1` costs no stack.
        var negations = 0
        while take("-") { negations += 1 }
        if negations > 0 { return negations % 2 == 1 ? .negate(try unary()) : .negate(.negate(try unary())) }
        var left = try pathExpression()
        while take("|") { left = .union(left, try pathExpression()) }
        return left
    }

    private mutating func pathExpression() throws(XPathError) -> XPathSyntax {
        switch current {
        case .symbol("/"):
            index += 1
            if startsStep { return .path(absolute: true, steps: try relativeSteps()) }
            return .path(absolute: true, steps: [])
        case .symbol("//"):
            index += 1
            return .path(absolute: true, steps: [XPathStep.descendantOrSelfNode] + (try relativeSteps()))
        case .number(let value):
            index += 1
            return try filterRest(.number(value))
        case .literal(let text):
            index += 1
            return try filterRest(.literal(text))
        case .symbol("("):
            index += 1
            let inner = try orExpression()
            try expect(")")
            return try filterRest(inner)
        case .symbol("$"):
            throw fail("variables ($name) are outside Tonearm's XPath subset")
        case .name(let name) where tokens[index + 1].token == .symbol("(") && !Self.nodeTypes.contains(name):
            let start = offset
            index += 2
            guard let arity = Self.functions[name] else {
                throw XPathError(offset: start, message: "function \(name)() is outside Tonearm's XPath subset")
            }
            var arguments: [XPathSyntax] = []
            if !take(")") {
                repeat { arguments.append(try orExpression()) } while take(",")
                try expect(")")
            }
            guard arity.contains(arguments.count) else {
                throw XPathError(offset: start, message: "\(name)() takes \(arity.lowerBound == arity.upperBound ? "\(arity.lowerBound)" : "\(arity.lowerBound) to \(arity.upperBound)") arguments")
            }
            return try filterRest(.function(name, arguments))
        default:
            guard startsStep else { throw fail("expected a location path, a literal, a number, '(' or a function call") }
            return .path(absolute: false, steps: try relativeSteps())
        }
    }

    private static let nodeTypes: Set<String> = ["text", "node", "comment", "processing-instruction"]

    private mutating func filterRest(_ primary: XPathSyntax) throws(XPathError) -> XPathSyntax {
        var predicates: [XPathSyntax] = []
        while take("[") {
            predicates.append(try orExpression())
            try expect("]")
        }
        var steps: [XPathStep] = []
        if current == .symbol("/") || current == .symbol("//") {
            steps = try continuedSteps()
        }
        if predicates.isEmpty && steps.isEmpty { return primary }
        return .filter(primary, predicates: predicates, steps: steps)
    }

    private var startsStep: Bool {
        switch current {
        case .name: return true
        case .symbol(let symbol): return ["*", "@", ".", ".."].contains(symbol)
        default: return false
        }
    }

    /// `/step` or `//step` repeated, after a filter expression.
    private mutating func continuedSteps() throws(XPathError) -> [XPathStep] {
        var steps: [XPathStep] = []
        while true {
            if take("/") {
                steps.append(try step())
            } else if take("//") {
                steps.append(XPathStep.descendantOrSelfNode)
                steps.append(try step())
            } else {
                return steps
            }
        }
    }

    private mutating func relativeSteps() throws(XPathError) -> [XPathStep] {
        var steps = [try step()]
        steps += try continuedSteps()
        return steps
    }

    private mutating func step() throws(XPathError) -> XPathStep {
        if take(".") { return XPathStep(axis: .self, test: .node, predicates: []) }
        if take("..") { return XPathStep(axis: .parent, test: .node, predicates: []) }
        var axis = XPathStep.Axis.child
        if take("@") {
            axis = .attribute
        } else if case .name(let name) = current, tokens[index + 1].token == .symbol("::") {
            guard let named = XPathStep.Axis(rawValue: name) else {
                throw fail("the \(name) axis is outside Tonearm's XPath subset")
            }
            axis = named
            index += 2
        }
        let test: XPathStep.Test
        switch current {
        case .symbol("*"):
            index += 1
            test = .anyName
        case .name(let name):
            index += 1
            if Self.nodeTypes.contains(name), take("(") {
                if name == "processing-instruction", case .literal = current { index += 1 }
                try expect(")")
                switch name {
                case "text": test = .text
                case "comment": test = .comment
                case "processing-instruction": test = .processingInstruction
                default: test = .node
                }
            } else if name.hasSuffix(":*") {
                test = .anyInNamespace(String(name.dropLast(2)))
            } else if let colon = name.firstIndex(of: ":") {
                test = .name(prefix: String(name[..<colon]), local: String(name[name.index(after: colon)...]))
            } else {
                test = .name(prefix: nil, local: name)
            }
        default:
            throw fail("expected a name, '*' or a node test such as text()")
        }
        var predicates: [XPathSyntax] = []
        while take("[") {
            predicates.append(try orExpression())
            try expect("]")
        }
        return XPathStep(axis: axis, test: test, predicates: predicates)
    }

    // MARK: Tokens

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar == "_" || scalar.value >= 0x80 && !scalar.properties.isWhitespace
    }

    private static func isNameChar(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
    }

    private static func lex(_ scalars: [Unicode.Scalar]) throws(XPathError) -> [(token: Token, offset: Int)] {
        var tokens: [(token: Token, offset: Int)] = []
        var position = 0
        // After an operand, `and`, `or`, `div` and `mod` are operators, not names (XPath 1.0, 3.7).
        func afterOperand() -> Bool {
            guard let last = tokens.last?.token else { return false }
            switch last {
            case .number, .literal, .name: return true
            case .symbol(let symbol): return [")", "]", ".", "..", "*"].contains(symbol)
            case .end: return false
            }
        }
        while position < scalars.count {
            let scalar = scalars[position]
            let start = position
            if scalar.properties.isWhitespace {
                position += 1
                continue
            }
            if scalar == "\"" || scalar == "'" {
                guard let end = scalars[(position + 1)...].firstIndex(of: scalar) else {
                    throw XPathError(offset: start, message: "a closing \(scalar) for the string literal")
                }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars[(position + 1)..<end])
                tokens.append((.literal(text), start))
                position = end + 1
                continue
            }
            if ("0"..."9").contains(scalar) || (scalar == "." && position + 1 < scalars.count && ("0"..."9").contains(scalars[position + 1])) {
                var text = ""
                while position < scalars.count, ("0"..."9").contains(scalars[position]) || scalars[position] == "." {
                    text.unicodeScalars.append(scalars[position])
                    position += 1
                }
                guard let value = Double(text) else { throw XPathError(offset: start, message: "a number, found \(text)") }
                tokens.append((.number(value), start))
                continue
            }
            if isNameStart(scalar) {
                var text = ""
                while position < scalars.count, isNameChar(scalars[position]) {
                    text.unicodeScalars.append(scalars[position])
                    position += 1
                }
                // A QName (prefix:local) or prefix:*, but not an axis's `::`.
                if position + 1 < scalars.count, scalars[position] == ":", scalars[position + 1] != ":" {
                    if scalars[position + 1] == "*" {
                        text += ":*"
                        position += 2
                    } else if isNameStart(scalars[position + 1]) {
                        text += ":"
                        position += 1
                        while position < scalars.count, isNameChar(scalars[position]) {
                            text.unicodeScalars.append(scalars[position])
                            position += 1
                        }
                    }
                }
                if afterOperand(), ["and", "or", "div", "mod"].contains(text) {
                    tokens.append((.symbol(text), start))
                } else {
                    tokens.append((.name(text), start))
                }
                continue
            }
            let two = position + 1 < scalars.count ? String(scalar) + String(scalars[position + 1]) : ""
            if ["//", "..", "::", "!=", "<=", ">="].contains(two) {
                tokens.append((.symbol(two), start))
                position += 2
                continue
            }
            if "/()[]@,|+-=<>.*$".unicodeScalars.contains(scalar) {
                tokens.append((.symbol(String(scalar)), start))
                position += 1
                continue
            }
            throw XPathError(offset: start, message: "'\(scalar)' is not part of XPath")
        }
        tokens.append((.end, scalars.count))
        tokens.append((.end, scalars.count))
        return tokens
    }
}
