/// Evaluates an ``XPathSyntax`` tree on an ``XPathTree``, within a budget of node visits.
struct XPathEvaluator {
    enum Value {
        case nodes([Int])
        case string(String)
        case number(Double)
        case boolean(Bool)
    }

    struct Context {
        var node: Int
        var position: Int
        var size: Int
    }

    /// Evaluation stopped: the budget spent, or a node-set needed where the value is not one (XPath 1.0
    /// calls that an error; WireMock then does not match).
    struct Stopped: Error {}

    let tree: XPathTree
    /// The prefixes bound, or `nil` when names are compared as written.
    let namespaces: [String: String]?
    /// Node visits left; an expression such as `//*//*//*` on a large document stops here.
    var budget = 1_000_000

    init(tree: XPathTree, namespaces: [String: String]?) {
        self.tree = tree
        self.namespaces = namespaces
    }

    mutating func spend(_ amount: Int) throws(Stopped) {
        budget -= amount
        if budget < 0 { throw Stopped() }
    }

    mutating func evaluate(_ syntax: XPathSyntax, _ context: Context) throws(Stopped) -> Value {
        try spend(1)
        switch syntax {
        case .number(let value): return .number(value)
        case .literal(let text): return .string(text)
        case .path(let absolute, let steps):
            return .nodes(try apply(steps[...], to: [absolute ? 0 : context.node]))
        case .filter(let primary, let predicates, let steps):
            // The parser makes a filter only with predicates or steps, which need a node-set.
            guard case .nodes(var nodes) = try evaluate(primary, context) else { throw Stopped() }
            for predicate in predicates { nodes = try filter(nodes, by: predicate) }
            return .nodes(try apply(steps[...], to: nodes))
        case .union(let left, let right):
            guard case .nodes(let a) = try evaluate(left, context), case .nodes(let b) = try evaluate(right, context) else { throw Stopped() }
            return .nodes(Array(Set(a + b)).sorted())
        case .negate(let operand):
            return .number(-number(try evaluate(operand, context)))
        case .binary(let op, let left, let right):
            switch op {
            case "or":
                if boolean(try evaluate(left, context)) { return .boolean(true) }
                return .boolean(boolean(try evaluate(right, context)))
            case "and":
                if !boolean(try evaluate(left, context)) { return .boolean(false) }
                return .boolean(boolean(try evaluate(right, context)))
            case "=", "!=", "<", "<=", ">", ">=":
                let a = try evaluate(left, context)
                let b = try evaluate(right, context)
                if case .nodes(let first) = a, case .nodes(let second) = b { try spend(first.count * second.count) }
                return .boolean(compare(op, a, b))
            default:
                let a = number(try evaluate(left, context))
                let b = number(try evaluate(right, context))
                switch op {
                case "+": return .number(a + b)
                case "-": return .number(a - b)
                case "*": return .number(a * b)
                case "div": return .number(a / b)
                default: return .number(a.truncatingRemainder(dividingBy: b))
                }
            }
        case .function(let name, let arguments):
            return try call(name, arguments, context)
        }
    }

    private mutating func apply(_ steps: ArraySlice<XPathStep>, to start: [Int]) throws(Stopped) -> [Int] {
        var current = start
        for step in steps {
            var next = Set<Int>()
            for node in current {
                var selected = try axisNodes(step.axis, from: node).filter { matches(step.test, $0, axis: step.axis) }
                for predicate in step.predicates { selected = try filter(selected, by: predicate) }
                next.formUnion(selected)
            }
            current = next.sorted()
        }
        return current
    }

    /// The nodes of `nodes` (in the order positions count) for which `predicate` holds.
    private mutating func filter(_ nodes: [Int], by predicate: XPathSyntax) throws(Stopped) -> [Int] {
        var kept: [Int] = []
        for (offset, node) in nodes.enumerated() {
            let value = try evaluate(predicate, Context(node: node, position: offset + 1, size: nodes.count))
            if case .number(let position) = value {
                if position == Double(offset + 1) { kept.append(node) }
            } else if boolean(value) {
                kept.append(node)
            }
        }
        return kept
    }

    /// The nodes on `axis` from `node`, nearest first for reverse axes.
    private mutating func axisNodes(_ axis: XPathStep.Axis, from index: Int) throws(Stopped) -> [Int] {
        let node = tree.nodes[index]
        var out: [Int] = []
        switch axis {
        case .child: out = node.children
        case .attribute: out = node.attributes
        case .self: out = [index]
        case .parent: out = node.parent >= 0 ? [node.parent] : []
        case .descendant, .descendantOrSelf:
            if axis == .descendantOrSelf { out.append(index) }
            var stack = Array(node.children.reversed())
            while let next = stack.popLast() {
                out.append(next)
                stack.append(contentsOf: tree.nodes[next].children.reversed())
            }
        case .ancestor, .ancestorOrSelf:
            if axis == .ancestorOrSelf { out.append(index) }
            var parent = node.parent
            while parent >= 0 {
                out.append(parent)
                parent = tree.nodes[parent].parent
            }
        case .followingSibling, .precedingSibling:
            guard node.kind != .attribute, node.parent >= 0 else { break }
            let siblings = tree.nodes[node.parent].children
            guard let position = siblings.firstIndex(of: index) else { break }
            out = axis == .followingSibling ? Array(siblings[(position + 1)...]) : siblings[..<position].reversed()
        }
        try spend(out.count)
        return out
    }

    private func matches(_ test: XPathStep.Test, _ index: Int, axis: XPathStep.Axis) -> Bool {
        let node = tree.nodes[index]
        let principal: XPathTree.Kind = axis == .attribute ? .attribute : .element
        switch test {
        case .node: return true
        case .text: return node.kind == .text
        case .comment: return node.kind == .comment
        case .processingInstruction: return node.kind == .processingInstruction
        case .anyName: return node.kind == principal
        case .anyInNamespace(let prefix):
            guard node.kind == principal, let uri = namespaces?[prefix] else { return false }
            return node.name?.namespace == uri
        case .name(let prefix, let local):
            guard node.kind == principal, let name = node.name else { return false }
            guard let namespaces else { return prefix == nil && name.qualifiedName == local }
            guard let prefix else { return name.namespace == nil && name.localName == local }
            guard let uri = namespaces[prefix] else { return false }
            return name.namespace == uri && name.localName == local
        }
    }

    // MARK: Conversions

    func string(_ value: Value) -> String {
        switch value {
        case .nodes(let nodes): return nodes.first.map(tree.stringValue) ?? ""
        case .string(let text): return text
        case .number(let number): return Self.text(of: number)
        case .boolean(let flag): return flag ? "true" : "false"
        }
    }

    func number(_ value: Value) -> Double {
        switch value {
        case .number(let number): return number
        case .boolean(let flag): return flag ? 1 : 0
        default: return Self.number(of: string(value))
        }
    }

    func boolean(_ value: Value) -> Bool {
        switch value {
        case .nodes(let nodes): return !nodes.isEmpty
        case .string(let text): return !text.isEmpty
        case .number(let number): return number != 0 && !number.isNaN
        case .boolean(let flag): return flag
        }
    }

    /// XPath's number(): optional minus, digits and a point, whitespace around; anything else is NaN.
    static func number(of text: String) -> Double {
        let trimmed = text.unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        var body = String(String.UnicodeScalarView(trimmed))
        while let last = body.unicodeScalars.last, last == " " || last == "\t" || last == "\n" || last == "\r" { body.unicodeScalars.removeLast() }
        guard !body.isEmpty, body.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "." || $0 == "-" }),
            !body.dropFirst().contains("-"), body.contains(where: \.isNumber)
        else { return .nan }
        return Double(body) ?? .nan
    }

    /// XPath's string() of a number: an integer without a point, NaN, Infinity.
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == number.rounded(), Swift.abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    private func compare(_ op: String, _ left: Value, _ right: Value) -> Bool {
        switch (left, right) {
        case (.nodes(let a), .nodes(let b)):
            let bValues = b.map(tree.stringValue)
            return a.contains { node in
                let value = tree.stringValue(node)
                return bValues.contains { atomic(op, .string(value), .string($0)) }
            }
        case (.nodes(let nodes), let other):
            if case .boolean = other { return atomic(op, .boolean(!nodes.isEmpty), other) }
            return nodes.contains { atomic(op, .string(tree.stringValue($0)), other) }
        case (let other, .nodes(let nodes)):
            if case .boolean = other { return atomic(op, other, .boolean(!nodes.isEmpty)) }
            return nodes.contains { atomic(op, other, .string(tree.stringValue($0))) }
        default:
            return atomic(op, left, right)
        }
    }

    private func atomic(_ op: String, _ left: Value, _ right: Value) -> Bool {
        if op == "=" || op == "!=" {
            let equal: Bool
            switch (left, right) {
            case (.boolean, _), (_, .boolean): equal = boolean(left) == boolean(right)
            case (.number, _), (_, .number): equal = number(left) == number(right)
            default: equal = string(left) == string(right)
            }
            return op == "=" ? equal : !equal
        }
        let a = number(left)
        let b = number(right)
        switch op {
        case "<": return a < b
        case "<=": return a <= b
        case ">": return a > b
        default: return a >= b
        }
    }

    // MARK: Functions

    private mutating func call(_ name: String, _ arguments: [XPathSyntax], _ context: Context) throws(Stopped) -> Value {
        var values: [Value] = []
        for argument in arguments { values.append(try evaluate(argument, context)) }
        func nodeArgument() throws(Stopped) -> Int? {
            guard let first = values.first else { return context.node }
            guard case .nodes(let nodes) = first else { throw Stopped() }
            return nodes.first
        }
        func text(_ offset: Int) -> String { offset < values.count ? string(values[offset]) : tree.stringValue(context.node) }
        switch name {
        case "last": return .number(Double(context.size))
        case "position": return .number(Double(context.position))
        case "count":
            guard case .nodes(let nodes) = values[0] else { throw Stopped() }
            return .number(Double(nodes.count))
        case "local-name": return .string(try nodeArgument().flatMap { tree.nodes[$0].name?.localName } ?? "")
        case "name": return .string(try nodeArgument().flatMap { tree.nodes[$0].name?.qualifiedName } ?? "")
        case "namespace-uri": return .string(try nodeArgument().flatMap { tree.nodes[$0].name?.namespace } ?? "")
        case "string": return .string(text(0))
        case "concat": return .string(values.map(string).joined())
        case "starts-with": return .boolean(string(values[0]).hasPrefix(string(values[1])))
        case "contains":
            let needle = string(values[1])
            return .boolean(needle.isEmpty || string(values[0]).contains(needle))
        case "substring-before":
            let haystack = string(values[0])
            guard let range = haystack.firstRange(of: string(values[1])) else { return .string("") }
            return .string(String(haystack[..<range.lowerBound]))
        case "substring-after":
            let haystack = string(values[0])
            guard let range = haystack.firstRange(of: string(values[1])) else { return .string("") }
            return .string(String(haystack[range.upperBound...]))
        case "substring":
            let scalars = Array(string(values[0]).unicodeScalars)
            let start = number(values[1]).rounded(.toNearestOrAwayFromZero)
            let end = values.count > 2 ? start + number(values[2]).rounded(.toNearestOrAwayFromZero) : .infinity
            guard !start.isNaN, !end.isNaN else { return .string("") }
            var out = ""
            for (offset, scalar) in scalars.enumerated() where Double(offset + 1) >= start && Double(offset + 1) < end {
                out.unicodeScalars.append(scalar)
            }
            return .string(out)
        case "string-length": return .number(Double(text(0).unicodeScalars.count))
        case "normalize-space":
            return .string(text(0).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " "))
        case "translate":
            let from = Array(string(values[1]).unicodeScalars)
            let to = Array(string(values[2]).unicodeScalars)
            var out = ""
            for scalar in string(values[0]).unicodeScalars {
                if let position = from.firstIndex(of: scalar) {
                    if position < to.count { out.unicodeScalars.append(to[position]) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return .string(out)
        case "not": return .boolean(!boolean(values[0]))
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "boolean": return .boolean(boolean(values[0]))
        case "number": return .number(values.isEmpty ? Self.number(of: tree.stringValue(context.node)) : number(values[0]))
        case "sum":
            guard case .nodes(let nodes) = values[0] else { throw Stopped() }
            return .number(nodes.reduce(0) { $0 + Self.number(of: tree.stringValue($1)) })
        case "floor": return .number(number(values[0]).rounded(.down))
        case "ceiling": return .number(number(values[0]).rounded(.up))
        default: return .number((number(values[0]) + 0.5).rounded(.down))
        }
    }
}
