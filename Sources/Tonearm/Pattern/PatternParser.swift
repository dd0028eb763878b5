/// Reads pattern text (the syntax of Java, RE2 and Swift `Regex` that rule files and WireMock mappings
/// use) into a ``PatternNode`` tree, refusing, with their place, the constructs a linear-time matcher
/// cannot run (backreferences, lookaround, atomic groups, possessive quantifiers, conditionals, recursion).
struct PatternParser {
    /// The deepest nesting of groups accepted: the parser and the compiler recurse once per level, and
    /// real patterns rarely go past four.
    static let maximumNesting = 32
    /// The largest count in `{n}`, `{n,}` and `{n,m}` (as in RE2).
    static let maximumRepeat = 1_000

    /// The options `(?i)`, `(?s)`, `(?m)` and `(?x)` switch, for the rest of the enclosing group.
    struct Flags {
        var ignoresCase = false
        var dotMatchesNewline = false
        var multiline = false
        var extended = false
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0

    private init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    /// The tree of `pattern`, or why it cannot be used.
    static func parse(_ pattern: String) throws(PatternProblem) -> PatternNode {
        var parser = PatternParser(Array(pattern.unicodeScalars))
        var flags = Flags()
        let node = try parser.alternation(flags: &flags)
        if parser.position < parser.scalars.count {
            throw PatternProblem(message: "unmatched `)` at offset \(parser.position)", offset: parser.position)
        }
        return node
    }

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ ahead: Int) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    private func text(_ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range.clamped(to: 0..<scalars.count)])
        return String(view)
    }

    // MARK: Structure

    private mutating func alternation(flags: inout Flags) throws(PatternProblem) -> PatternNode {
        let start = position
        var branches = [try sequence(flags: &flags)]
        while current == "|" {
            position += 1
            branches.append(try sequence(flags: &flags))
        }
        return branches.count == 1 ? branches[0] : PatternNode(kind: .alternation(branches), offset: start)
    }

    private mutating func sequence(flags: inout Flags) throws(PatternProblem) -> PatternNode {
        let start = position
        var items: [PatternNode] = []
        while true {
            if flags.extended { skipExtendedSpace() }
            guard let scalar = current, scalar != "|", scalar != ")" else { break }
            let atomStart = position
            guard let atom = try atom(flags: &flags) else { continue }
            items.append(try quantified(atom, from: atomStart, flags: flags))
        }
        switch items.count {
        case 0: return PatternNode(kind: .empty, offset: start)
        case 1: return items[0]
        default: return PatternNode(kind: .concatenation(items), offset: start)
        }
    }

    /// Under `(?x)`, whitespace and `#` comments to the end of the line are not part of the pattern.
    private mutating func skipExtendedSpace() {
        while let scalar = current {
            if scalar.properties.isWhitespace {
                position += 1
            } else if scalar == "#" {
                while let next = current, next != "\n" { position += 1 }
            } else {
                return
            }
        }
    }

    private mutating func quantified(_ atom: PatternNode, from start: Int, flags: Flags) throws(PatternProblem) -> PatternNode {
        if flags.extended { skipExtendedSpace() }
        guard let bounds = try quantifier() else { return atom }
        if current == "+" {
            throw Self.unsupported("possessive quantifier", text(bounds.start..<position + 1), at: bounds.start,
                                   instead: "write the greedy form `\(text(bounds.start..<position))`, which matches the same texts here except in rare cases")
        }
        if current == "?" { position += 1 }  // lazy: the same texts match, only captures would differ
        if flags.extended { skipExtendedSpace() }
        let after = position
        if (try quantifier()) != nil {
            throw PatternProblem(
                message: "quantifier at offset \(after) follows another quantifier; put the repeated part in a group, e.g. `(?:a{2})*`",
                offset: after)
        }
        return PatternNode(kind: .repetition(atom, min: bounds.min, max: bounds.max), offset: start)
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` or `{,m}` at the current position, consumed; `nil` (nothing
    /// consumed) when there is none. A `{` that does not start a valid count is a literal `{`.
    private mutating func quantifier() throws(PatternProblem) -> (min: Int, max: Int?, start: Int)? {
        let start = position
        switch current {
        case "*": position += 1; return (0, nil, start)
        case "+": position += 1; return (1, nil, start)
        case "?": position += 1; return (0, 1, start)
        case "{":
            var cursor = position + 1
            func number() -> Int? {
                var value: Int?
                while cursor < scalars.count, let digit = scalars[cursor].properties.numericType == .decimal && scalars[cursor].isASCII
                        ? Int(scalars[cursor].value) - 48 : nil {
                    // Saturates: anything past the maximum is refused below anyway.
                    value = Swift.min((value ?? 0) * 10 + digit, Self.maximumRepeat + 1)
                    cursor += 1
                }
                return value
            }
            let lower = number()
            var upper = lower
            var unbounded = false
            if cursor < scalars.count, scalars[cursor] == "," {
                cursor += 1
                upper = number()
                unbounded = upper == nil
                if lower == nil, upper == nil { return nil }
            } else if lower == nil {
                return nil
            }
            guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
            position = cursor + 1
            let minimum = lower ?? 0
            for count in [minimum, upper ?? 0] where count > Self.maximumRepeat {
                throw PatternProblem(
                    message: "repetition `\(text(start..<position))` at offset \(start) counts past \(Self.maximumRepeat), the most allowed",
                    offset: start)
            }
            if let upper, upper < minimum {
                throw PatternProblem(
                    message: "repetition `\(text(start..<position))` at offset \(start) has its maximum below its minimum", offset: start)
            }
            return (minimum, unbounded ? nil : upper, start)
        default:
            return nil
        }
    }

    /// One atom, consumed; `nil` for text that matches nothing (an option switch, a comment).
    private mutating func atom(flags: inout Flags) throws(PatternProblem) -> PatternNode? {
        let start = position
        guard let scalar = current else { return nil }
        switch scalar {
        case "(":
            return try group(flags: &flags)
        case "[":
            position += 1
            return PatternNode(kind: .scalars(try characterClass(from: start, flags: flags)), offset: start)
        case "\\":
            position += 1
            return try escape(from: start, flags: flags)
        case ".":
            position += 1
            return PatternNode(kind: .scalars(flags.dotMatchesNewline ? .all : ScalarRanges.newline.inverted), offset: start)
        case "^":
            position += 1
            return PatternNode(kind: .assertion(flags.multiline ? .lineStart : .textStart), offset: start)
        case "$":
            position += 1
            return PatternNode(kind: .assertion(flags.multiline ? .lineEnd : .textEndOrFinalNewline), offset: start)
        case "*", "+", "?":
            throw PatternProblem(message: "quantifier `\(scalar)` at offset \(start) has nothing to repeat", offset: start)
        case "{":
            if (try quantifier()) != nil {
                throw PatternProblem(message: "quantifier `\(text(start..<position))` at offset \(start) has nothing to repeat", offset: start)
            }
            position += 1
            return literal(scalar, at: start, flags: flags)
        default:
            position += 1
            return literal(scalar, at: start, flags: flags)
        }
    }

    private func literal(_ scalar: Unicode.Scalar, at offset: Int, flags: Flags) -> PatternNode {
        if flags.ignoresCase, scalar.properties.changesWhenCaseMapped {
            return PatternNode(kind: .scalars(ScalarRanges(scalar).caseFolded), offset: offset)
        }
        return PatternNode(kind: .literal(scalar), offset: offset)
    }

    // MARK: Groups

    private mutating func group(flags: inout Flags) throws(PatternProblem) -> PatternNode? {
        let start = position
        position += 1
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumNesting {
            throw PatternProblem(
                message: "groups nest more than \(Self.maximumNesting) levels deep at offset \(start); at most \(Self.maximumNesting) are allowed",
                offset: start)
        }
        var inner = flags
        if current == "?" {
            position += 1
            switch current {
            case ":", "|":
                position += 1
            case "<" where peek(1) == "=" || peek(1) == "!":
                throw Self.unsupported(peek(1) == "=" ? "lookbehind" : "negative lookbehind", text(start..<position + 2), at: start,
                                       instead: "match the text before it as part of the pattern")
            case "<", "'":
                try skipGroupName(from: start, closing: current == "<" ? ">" : "'")
            case "P" where peek(1) == "<":
                position += 1
                try skipGroupName(from: start, closing: ">")
            case "P" where peek(1) == "=":
                throw Self.unsupported("backreference", text(start..<position + 2), at: start, instead: Self.backreferenceAdvice)
            case "P" where peek(1) == ">":
                throw Self.unsupported("recursion", text(start..<position + 2), at: start, instead: "write the repeated part out")
            case "=", "!":
                let name = current == "=" ? "lookahead" : "negative lookahead"
                throw Self.unsupported(name, text(start..<position + 1), at: start,
                                       instead: "match the text itself (e.g. `^/a+$` rather than `^/(?=a+$)`), or add a query, header or body condition to the rule")
            case ">":
                throw Self.unsupported("atomic group", text(start..<position + 1), at: start,
                                       instead: "write a plain group `(?:…)`, which matches the same texts here except in rare cases")
            case "(":
                throw Self.unsupported("conditional", text(start..<position + 1), at: start, instead: "write an alternation `(?:a|b)`")
            case "R", "&":
                throw Self.unsupported("recursion", text(start..<position + 1), at: start, instead: "write the repeated part out")
            case let sign? where (sign == "+" || sign == "-" || sign.properties.numericType == .decimal)
                && (sign.properties.numericType == .decimal || peek(1)?.properties.numericType == .decimal):
                throw Self.unsupported("recursion", text(start..<position + 1), at: start, instead: "write the repeated part out")
            case "#":
                while let next = current, next != ")" { position += 1 }
                guard current == ")" else { throw Self.unclosedGroup(at: start) }
                position += 1
                return nil
            default:
                let scoped = try readFlags(into: &inner, groupStart: start)
                if !scoped {
                    // `(?i)`: applies to the rest of the enclosing group.
                    flags = inner
                    return nil
                }
            }
        }
        let body = try alternation(flags: &inner)
        guard current == ")" else { throw Self.unclosedGroup(at: start) }
        position += 1
        return body
    }

    /// Reads `imsx-imsx` up to `)` (returns `false`: the flags switch for the rest of the group) or `:`
    /// (returns `true`: they apply to the group it opens).
    private mutating func readFlags(into flags: inout Flags, groupStart: Int) throws(PatternProblem) -> Bool {
        var enabling = true
        while let scalar = current {
            let flagOffset = position
            position += 1
            switch scalar {
            case ")": return false
            case ":": return true
            case "-" where enabling: enabling = false
            case "i": flags.ignoresCase = enabling
            case "s": flags.dotMatchesNewline = enabling
            case "m": flags.multiline = enabling
            case "x": flags.extended = enabling
            // Java's Unicode case folding and Unix lines, and Swift's named-captures-only, are what
            // Tonearm does anyway.
            case "u", "d", "n": break
            default:
                throw PatternProblem(
                    message: "option `\(scalar)` at offset \(flagOffset) is not supported (supported: i, m, s, x)", offset: flagOffset)
            }
        }
        throw Self.unclosedGroup(at: groupStart)
    }

    private mutating func skipGroupName(from start: Int, closing: Unicode.Scalar) throws(PatternProblem) {
        position += 1
        while let scalar = current, scalar != closing {
            guard scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal else {
                throw PatternProblem(message: "group name at offset \(start) has `\(scalar)`; names are letters, digits and `_`", offset: position)
            }
            position += 1
        }
        guard current == closing else { throw Self.unclosedGroup(at: start) }
        position += 1
    }

    private static func unclosedGroup(at offset: Int) -> PatternProblem {
        PatternProblem(message: "group `(` at offset \(offset) is not closed", offset: offset)
    }

    static let backreferenceAdvice = "match the text itself, e.g. `[a-z]+` for the repeated word"

    private static func unsupported(_ construct: String, _ text: String, at offset: Int, instead: String) -> PatternProblem {
        PatternProblem(
            message: "\(construct) `\(text)` at offset \(offset) is not supported: Tonearm matches patterns in time linear "
                + "in the text, which the \(construct) would break; \(instead)",
            offset: offset)
    }

    // MARK: Escapes

    /// What follows a `\` outside a class (`start` is the backslash).
    private mutating func escape(from start: Int, flags: Flags) throws(PatternProblem) -> PatternNode {
        guard let letter = current else {
            throw PatternProblem(message: "the pattern ends with a lone `\\` at offset \(start)", offset: start)
        }
        func node(_ kind: PatternNode.Kind) -> PatternNode { PatternNode(kind: kind, offset: start) }
        switch letter {
        case "A": position += 1; return node(.assertion(.textStart))
        case "z": position += 1; return node(.assertion(.textEnd))
        case "Z": position += 1; return node(.assertion(.textEndOrFinalNewline))
        case "b": position += 1; return node(.assertion(.wordBoundary))
        case "B": position += 1; return node(.assertion(.notWordBoundary))
        case "Q":
            position += 1
            var items: [PatternNode] = []
            while let scalar = current, !(scalar == "\\" && peek(1) == "E") {
                items.append(literal(scalar, at: position, flags: flags))
                position += 1
            }
            if current == "\\" { position += 2 }
            return items.count == 1 ? items[0] : node(items.isEmpty ? .empty : .concatenation(items))
        case "1"..."9":
            throw Self.unsupported("backreference", text(start..<position + 1), at: start, instead: Self.backreferenceAdvice)
        case "k", "g":
            throw Self.unsupported("backreference", text(start..<Swift.min(position + 2, scalars.count)), at: start, instead: Self.backreferenceAdvice)
        case "G", "K", "R", "X", "N", "y", "Y", "O":
            throw PatternProblem(
                message: "escape `\\\(letter)` at offset \(start) is not supported: Tonearm matches patterns in time linear in the text "
                    + "and accepts literals, classes (`\\d \\w \\s \\h \\v` and their negations) and anchors (`\\A \\z \\Z \\b \\B`)",
                offset: start)
        default:
            let set = try classEscape(from: start, flags: flags)
            if let single = set.single { return node(.literal(single)) }
            return node(.scalars(set))
        }
    }

    /// An escape that stands for scalars (`\d`, `\n`, `\x41`, `\.`), inside or outside a class; the
    /// position is on the letter after the backslash at `start`.
    private mutating func classEscape(from start: Int, flags: Flags) throws(PatternProblem) -> ScalarRanges {
        guard let letter = current else {
            throw PatternProblem(message: "the pattern ends with a lone `\\` at offset \(start)", offset: start)
        }
        position += 1
        func folded(_ value: UInt32) throws(PatternProblem) -> ScalarRanges {
            guard let scalar = Unicode.Scalar(value) else {
                throw PatternProblem(message: "escape `\(text(start..<position))` at offset \(start) is not a Unicode scalar", offset: start)
            }
            let set = ScalarRanges(scalar)
            return flags.ignoresCase ? set.caseFolded : set
        }
        switch letter {
        case "d": return .digits
        case "D": return ScalarRanges.digits.inverted
        case "w": return .word
        case "W": return ScalarRanges.word.inverted
        case "s": return .whitespace
        case "S": return ScalarRanges.whitespace.inverted
        case "h": return .horizontalWhitespace
        case "H": return ScalarRanges.horizontalWhitespace.inverted
        case "v": return .verticalWhitespace
        case "V": return ScalarRanges.verticalWhitespace.inverted
        case "n": return ScalarRanges("\n")
        case "t": return ScalarRanges("\t")
        case "r": return ScalarRanges("\r")
        case "f": return ScalarRanges("\u{0C}")
        case "e": return ScalarRanges("\u{1B}")
        case "a": return ScalarRanges("\u{07}")
        case "0": return try folded(number(radix: 8, maximumDigits: 3, from: start, required: false))
        case "x":
            if current == "{" { return try folded(bracedNumber(from: start)) }
            return try folded(number(radix: 16, maximumDigits: 2, from: start, required: true))
        case "u":
            if current == "{" { return try folded(bracedNumber(from: start)) }
            return try folded(number(radix: 16, maximumDigits: 4, from: start, required: true))
        case "c":
            guard let control = current, control.isASCII else {
                throw PatternProblem(message: "`\\c` at offset \(start) needs a letter after it", offset: start)
            }
            position += 1
            return try folded(control.value ^ 0x40)
        case "p", "P":
            let set = try property(from: start)
            return letter == "P" ? set.inverted : set
        default:
            guard letter.properties.isAlphabetic || letter.properties.numericType != nil else {
                return flags.ignoresCase ? ScalarRanges(letter).caseFolded : ScalarRanges(letter)
            }
            throw PatternProblem(message: "unknown escape `\\\(letter)` at offset \(start)", offset: start)
        }
    }

    private mutating func number(radix: UInt32, maximumDigits: Int, from start: Int, required: Bool) throws(PatternProblem) -> UInt32 {
        var value: UInt32 = 0
        var digits = 0
        while digits < maximumDigits, let scalar = current, let digit = Self.digitValue(scalar, radix: radix) {
            value = value * radix + digit
            digits += 1
            position += 1
        }
        if required, digits < maximumDigits {
            throw PatternProblem(
                message: "escape `\(text(start..<position))` at offset \(start) needs \(maximumDigits) hexadecimal digits", offset: start)
        }
        return value
    }

    /// `{hhhh}` after `\x` or `\u`.
    private mutating func bracedNumber(from start: Int) throws(PatternProblem) -> UInt32 {
        position += 1
        var value: UInt32 = 0
        var digits = 0
        while let scalar = current, let digit = Self.digitValue(scalar, radix: 16) {
            guard digits < 8 else { break }
            value = value * 16 + digit
            digits += 1
            position += 1
        }
        guard digits > 0, current == "}" else {
            throw PatternProblem(message: "escape at offset \(start) needs hexadecimal digits and a closing `}`", offset: start)
        }
        position += 1
        return value
    }

    private static func digitValue(_ scalar: Unicode.Scalar, radix: UInt32) -> UInt32? {
        let value: UInt32
        switch scalar {
        case "0"..."9": value = scalar.value - 48
        case "a"..."f": value = scalar.value - 87
        case "A"..."F": value = scalar.value - 55
        default: return nil
        }
        return value < radix ? value : nil
    }

    /// `\p{Name}` or `\pL`-style single letters for the POSIX names (as Java spells them: `\p{Alpha}`).
    private mutating func property(from start: Int) throws(PatternProblem) -> ScalarRanges {
        var name = ""
        if current == "{" {
            position += 1
            while let scalar = current, scalar != "}" { name.unicodeScalars.append(scalar); position += 1 }
            guard current == "}" else {
                throw PatternProblem(message: "property `\(text(start..<position))` at offset \(start) is not closed with `}`", offset: start)
            }
            position += 1
        } else if let scalar = current {
            name.unicodeScalars.append(scalar)
            position += 1
        }
        guard let set = PosixClass.named(name.lowercased()) else {
            throw PatternProblem(
                message: "property `\(text(start..<position))` at offset \(start) is not supported; write a class such as "
                    + "`[A-Za-z]`, or one of \\p{L}, \\p{N}, \\p{Alpha}, \\p{Digit}, \\p{Alnum}, \\p{Upper}, \\p{Lower}, \\p{Punct}, \\p{Space}, \\p{XDigit}",
                offset: start)
        }
        return set
    }

    // MARK: Classes

    /// The set a `[…]` class matches; `start` is its `[`, and the position is just after it.
    private mutating func characterClass(from start: Int, flags: Flags) throws(PatternProblem) -> ScalarRanges {
        var negated = false
        if current == "^" { negated = true; position += 1 }
        var set = ScalarRanges()
        var first = true
        while true {
            guard let scalar = current else {
                throw PatternProblem(message: "class `[` at offset \(start) is not closed with `]`", offset: start)
            }
            let itemStart = position
            if scalar == "]", !first { position += 1; break }
            first = false
            if scalar == "[" {
                if peek(1) == ":", let posix = try posixClass() {
                    set.formUnion(posix)
                    continue
                }
                throw PatternProblem(
                    message: "nested class `[` at offset \(itemStart) is not supported; write `\\[` for the character, or list the members in one class",
                    offset: itemStart)
            }
            if scalar == "&", peek(1) == "&" {
                throw PatternProblem(
                    message: "class intersection `&&` at offset \(itemStart) is not supported; list the members the class should have",
                    offset: itemStart)
            }
            let lower: ScalarRanges
            position += 1
            if scalar == "\\" {
                lower = try classEscape(from: itemStart, flags: Flags())
            } else {
                lower = ScalarRanges(scalar)
            }
            guard current == "-", let after = peek(1), after != "]", let low = lower.single else {
                set.formUnion(lower)
                continue
            }
            position += 1
            let upperStart = position
            let upper: ScalarRanges
            if after == "\\" {
                position += 1
                upper = try classEscape(from: upperStart, flags: Flags())
            } else if after == "[" {
                throw PatternProblem(message: "range at offset \(itemStart) ends in a class; write `\\-` for a literal `-`", offset: itemStart)
            } else {
                position += 1
                upper = ScalarRanges(after)
            }
            guard let high = upper.single else {
                throw PatternProblem(message: "range at offset \(itemStart) ends in a class; write `\\-` for a literal `-`", offset: itemStart)
            }
            guard low.value <= high.value else {
                throw PatternProblem(
                    message: "range `\(text(itemStart..<position))` at offset \(itemStart) is out of order", offset: itemStart)
            }
            set.insert(low.value...high.value)
        }
        if flags.ignoresCase { set = set.caseFolded }
        return negated ? set.inverted : set
    }

    /// `[:name:]` or `[:^name:]` inside a class, consumed; `nil` (nothing consumed) when the text is not one.
    private mutating func posixClass() throws(PatternProblem) -> ScalarRanges? {
        var cursor = position + 2
        var negated = false
        if cursor < scalars.count, scalars[cursor] == "^" { negated = true; cursor += 1 }
        var name = ""
        while cursor < scalars.count, scalars[cursor].properties.isAlphabetic { name.unicodeScalars.append(scalars[cursor]); cursor += 1 }
        guard cursor + 1 < scalars.count, scalars[cursor] == ":", scalars[cursor + 1] == "]" else { return nil }
        guard let set = PosixClass.named(name) else {
            throw PatternProblem(message: "POSIX class `[:\(name):]` at offset \(position) is unknown", offset: position)
        }
        position = cursor + 2
        return negated ? set.inverted : set
    }
}
