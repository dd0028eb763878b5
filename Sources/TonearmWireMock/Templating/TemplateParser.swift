/// Reads Handlebars template text into nodes, with the line and column of every error, so that a bad
/// template is refused when its mapping is loaded rather than when a request meets it.
///
/// The subset WireMock users write: `{{path}}`, `{{{path}}}`, `{{helper arg key=value}}`,
/// subexpressions `(helper …)`, blocks `{{#helper}}…{{else}}…{{/helper}}`, comments `{{! … }}` and
/// `{{!-- … --}}`, and `~` trimming the whitespace beside a tag. An opening `{{` that is never closed is
/// text, as Handlebars leaves it.
struct TemplateParser {
    private let scalars: [Character]
    /// Where each line starts, for positions in errors.
    private let lineStarts: [Int]
    /// Past the last `}}`, no tag can close: an opening there is text at once, without a scan to the end
    /// (which made a template of many unclosed `{{` quadratic).
    private let lastClose: Int
    private var offset = 0
    /// Set by a tag ending with `~}}`: the text after it loses its leading whitespace.
    private var trimNextText = false

    init(_ text: String) {
        scalars = Array(text)
        var starts = [0]
        var last = -1
        for (index, character) in scalars.enumerated() {
            if character == "\n" { starts.append(index + 1) }
            if character == "}", index > 0, scalars[index - 1] == "}" { last = index - 1 }
        }
        lineStarts = starts
        lastClose = last
    }

    static func parse(_ text: String) throws(TemplateError) -> [TemplateNode] {
        var parser = TemplateParser(text)
        let (nodes, end) = try parser.nodes(until: nil)
        if let end { throw TemplateError(position: end.position, expected: "text or a tag", found: "{{\(end.tag)}} outside a block") }
        return nodes
    }

    /// How a run of nodes ended: `{{else}}` or `{{/name}}`, where.
    private struct Terminator {
        let tag: String
        let position: TemplatePosition
    }

    private mutating func nodes(until closing: String?) throws(TemplateError) -> ([TemplateNode], Terminator?) {
        var nodes: [TemplateNode] = []
        var text = ""
        func flush(into nodes: inout [TemplateNode], _ text: inout String) {
            if !text.isEmpty { nodes.append(.text(text)) }
            text = ""
        }
        while offset < scalars.count {
            guard scalars[offset] == "{", offset + 1 < scalars.count, scalars[offset + 1] == "{", let close = tagEnd(from: offset) else {
                if trimNextText, text.isEmpty, scalars[offset].isWhitespace { offset += 1; continue }
                trimNextText = false
                text.append(scalars[offset])
                offset += 1
                continue
            }
            let start = position(of: offset)
            let isRaw = offset + 2 < scalars.count && scalars[offset + 2] == "{"
            var inner = String(scalars[(offset + (isRaw ? 3 : 2))..<close.contentEnd])
            offset = close.next
            if inner.hasPrefix("~") {
                inner.removeFirst()
                while let last = text.last, last.isWhitespace { text.removeLast() }
            }
            trimNextText = false
            if inner.hasSuffix("~") {
                inner.removeLast()
                trimNextText = true
            }
            if inner.hasPrefix("!") { continue }
            let trimmed = inner.trimmingSpaces
            if trimmed == "else" || trimmed == "^" {
                flush(into: &nodes, &text)
                return (nodes, Terminator(tag: "else", position: start))
            }
            if trimmed.hasPrefix("/") {
                flush(into: &nodes, &text)
                let name = String(trimmed.dropFirst()).trimmingSpaces
                guard name == closing else {
                    throw TemplateError(position: start, expected: closing.map { "{{/\($0)}}" } ?? "text or a tag", found: "{{/\(name)}}")
                }
                return (nodes, Terminator(tag: "/" + name, position: start))
            }
            flush(into: &nodes, &text)
            if trimmed.hasPrefix("#") {
                nodes.append(try block(String(trimmed.dropFirst()), at: start))
            } else {
                var reader = TagReader(trimmed, at: start)
                nodes.append(.output(try reader.expressionOfTag(), escaped: !isRaw))
            }
        }
        flush(into: &nodes, &text)
        if let closing {
            throw TemplateError(position: position(of: offset), expected: "{{/\(closing)}}", found: "the end of the template")
        }
        return (nodes, nil)
    }

    private mutating func block(_ tag: String, at start: TemplatePosition) throws(TemplateError) -> TemplateNode {
        var reader = TagReader(tag, at: start)
        let call = try reader.blockCall()
        let name = call.helper.name
        let (body, end) = try nodes(until: name)
        var inverse: [TemplateNode] = []
        if end?.tag == "else" {
            let (elseNodes, elseEnd) = try nodes(until: name)
            if elseEnd?.tag == "else" {
                throw TemplateError(position: elseEnd?.position, expected: "{{/\(name)}}", found: "a second {{else}}")
            }
            inverse = elseNodes
        }
        return .block(call, body: body, inverse: inverse)
    }

    /// Where the tag opened at `start` ends: `}}` (`}}}` for a raw tag; `--}}` for a long comment).
    private func tagEnd(from start: Int) -> (contentEnd: Int, next: Int)? {
        guard start + 2 <= lastClose else { return nil }
        let isRaw = start + 2 < scalars.count && scalars[start + 2] == "{"
        let isLongComment = matches("{{!--", at: start)
        var index = start + (isRaw ? 3 : 2)
        while index < scalars.count {
            if isLongComment {
                if matches("--}}", at: index) { return (index + 2, index + 4) }
            } else if isRaw {
                if matches("}}}", at: index) { return (index, index + 3) }
            } else if matches("}}", at: index) {
                return (index, index + 2)
            }
            index += 1
        }
        return nil
    }

    private func matches(_ text: String, at index: Int) -> Bool {
        var at = index
        for character in text {
            guard at < scalars.count, scalars[at] == character else { return false }
            at += 1
        }
        return true
    }

    private func position(of index: Int) -> TemplatePosition {
        // The last line start at or before `index`, by binary search.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return TemplatePosition(line: low + 1, column: index - lineStarts[low] + 1)
    }
}

/// Reads what is inside one tag: a helper and its arguments, or a path.
private struct TagReader {
    private let characters: [Character]
    private var index = 0
    private let position: TemplatePosition

    init(_ text: String, at position: TemplatePosition) {
        characters = Array(text)
        self.position = position
    }

    /// `{{path}}`, `{{helper args}}`, or `{{now}}` (a helper that needs no argument).
    mutating func expressionOfTag() throws(TemplateError) -> TemplateExpression {
        skipSpaces()
        let first = try operand()
        skipSpaces()
        if index >= characters.count {
            if case .path(let path) = first, path.parents == 0, !path.isData, path.segments.count == 1,
                let helper = TemplateHelper(name: path.segments[0]), helper.runsWithoutArguments
            {
                return .call(TemplateCall(helper: helper, arguments: [], options: [:], position: position))
            }
            return first
        }
        return .call(try call(named: first, closing: nil))
    }

    /// `#helper args`: a block must name a helper.
    mutating func blockCall() throws(TemplateError) -> TemplateCall {
        skipSpaces()
        let name = try operand()
        return try call(named: name, closing: nil)
    }

    private mutating func call(named name: TemplateExpression, closing: Character?) throws(TemplateError) -> TemplateCall {
        guard case .path(let path) = name, path.parents == 0, !path.isData, path.segments.count == 1 else {
            throw TemplateError(position: position, expected: "a helper name", found: "a value where a helper belongs")
        }
        guard let helper = TemplateHelper(name: path.segments[0]) else {
            throw TemplateError(position: position, expected: "a helper (\(TemplateHelper.names))", found: "\"\(path.segments[0])\"")
        }
        var arguments: [TemplateExpression] = []
        var options: [String: TemplateExpression] = [:]
        while true {
            skipSpaces()
            guard index < characters.count else { break }
            if let closing, characters[index] == closing { break }
            if let key = optionKey() {
                options[key] = try operand()
            } else {
                arguments.append(try operand())
            }
        }
        if closing != nil, index >= characters.count {
            throw TemplateError(position: position, expected: "\")\" closing the subexpression", found: "the end of the tag")
        }
        return TemplateCall(helper: helper, arguments: arguments, options: options, position: position)
    }

    /// `key=` ahead: the key, with the reader past `=`.
    private mutating func optionKey() -> String? {
        var end = index
        while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" { end += 1 }
        guard end > index, end < characters.count, characters[end] == "=" else { return nil }
        let key = String(characters[index..<end])
        index = end + 1
        return key
    }

    private mutating func operand() throws(TemplateError) -> TemplateExpression {
        guard index < characters.count else {
            throw TemplateError(position: position, expected: "a value", found: "the end of the tag")
        }
        let character = characters[index]
        if character == "(" {
            index += 1
            skipSpaces()
            let name = try operand()
            let call = try call(named: name, closing: ")")
            index += 1
            return .call(call)
        }
        if character == "'" || character == "\"" {
            index += 1
            var text = ""
            while index < characters.count, characters[index] != character {
                if characters[index] == "\\", index + 1 < characters.count, characters[index + 1] == character { index += 1 }
                text.append(characters[index])
                index += 1
            }
            guard index < characters.count else {
                throw TemplateError(position: position, expected: "\(character) closing the string", found: "the end of the tag")
            }
            index += 1
            return .literal(.string(text))
        }
        let word = readWord()
        guard !word.isEmpty else {
            throw TemplateError(position: position, expected: "a value", found: "\"\(character)\"")
        }
        switch word {
        case "true": return .literal(.bool(true))
        case "false": return .literal(.bool(false))
        case "null", "undefined": return .literal(.null)
        default: break
        }
        if let integer = Int(word) { return .literal(.integer(integer)) }
        if word.first.map({ $0.isNumber || $0 == "-" }) == true, let decimal = Double(word) { return .literal(.decimal(decimal)) }
        return .path(try Self.path(word, at: position))
    }

    /// Characters up to a space or parenthesis; `[…]` segments may hold anything but `]`.
    private mutating func readWord() -> String {
        var word = ""
        while index < characters.count {
            let character = characters[index]
            if character == "[" {
                while index < characters.count, characters[index] != "]" { word.append(characters[index]); index += 1 }
                if index < characters.count { word.append("]"); index += 1 }
                continue
            }
            if character.isWhitespace || character == "(" || character == ")" || character == "=" { break }
            word.append(character)
            index += 1
        }
        return word
    }

    private mutating func skipSpaces() {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
    }

    /// `a.b.[c d].0`, `../x`, `this.y`, `@index` as a path.
    static func path(_ word: String, at position: TemplatePosition) throws(TemplateError) -> TemplatePath {
        var path = TemplatePath()
        var rest = Substring(word)
        while rest.hasPrefix("../") {
            path.parents += 1
            rest = rest.dropFirst(3)
        }
        if rest.hasPrefix("@") {
            path.isData = true
            rest = rest.dropFirst()
        }
        var segment = ""
        var inBrackets = false
        for character in rest {
            if inBrackets {
                if character == "]" { inBrackets = false } else { segment.append(character) }
            } else if character == "[" {
                inBrackets = true
            } else if character == "." || character == "/" {
                path.segments.append(segment)
                segment = ""
            } else {
                segment.append(character)
            }
        }
        path.segments.append(segment)
        // `request.query.a.[0]` is split as "a", "", "0" by the dot before the bracket: drop the empty one.
        path.segments = path.segments.enumerated().filter { !$0.element.isEmpty || $0.offset == 0 }.map(\.element)
        if path.segments.first == "this" { path.segments.removeFirst() }
        guard !path.segments.contains(where: \.isEmpty) || path.segments == [""] else {
            throw TemplateError(position: position, expected: "a path such as request.query.name", found: "\"\(word)\"")
        }
        if path.segments == [""] { path.segments = [] }
        return path
    }
}
