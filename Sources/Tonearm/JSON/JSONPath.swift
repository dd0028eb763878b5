/// A JSONPath expression in the dialect WireMock's `matchesJsonPath` uses (Jayway's, after Goessner):
/// `$`, `.name` and `['name']`, `[0]` and `[-1]`, `*`, `..` (descendants), unions `['a','b']` and
/// `[0,2]`, slices `[1:3]` and `[::2]`, and filters `[?(@.price < 10 && @.tags)]` with `==`, `!=`,
/// `<`, `<=`, `>`, `>=`, `=~ /regex/i` (a whole-value match, in linear time), `!`, `&&`, `||` and
/// parentheses, on `@` (the candidate) and `$` (the document). Functions such as `length()` are not
/// supported and refused when parsed.
///
/// The one JSONPath implementation of the project: the importers and the WireMock admin API parse
/// with it. Two paths are equal when their text is.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let text: String
    let segments: [JSONPathSegment]

    /// Parses `text`; the error names the offset and what was expected there.
    public init(_ text: String) throws(JSONPathError) {
        self.text = text
        var parser = JSONPathParser(text)
        segments = try parser.path()
    }

    /// Whether the path names at most one value (no wildcard, descendant, union, slice or filter), as
    /// `$.a.b[0]` does.
    public var isDefinite: Bool { segments.allSatisfy(\.isDefinite) }

    /// The values the path selects in `document`, in document order.
    public func select(in document: JSONValue) -> [JSONValue] {
        JSONPathSegment.apply(segments[...], to: [document], root: document)
    }

    /// The expression as written.
    public var description: String { text }

    /// Paths are equal when their text is (the compiled filters have no equality of their own).
    public static func == (lhs: JSONPath, rhs: JSONPath) -> Bool { lhs.text == rhs.text }

    /// Hashes the text, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// Why a JSONPath expression could not be parsed.
public struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset, in characters, where the problem is.
    public let offset: Int
    /// What was expected there.
    public let message: String

    /// `JSONPath, at offset N: expected …`.
    public var description: String { "JSONPath, at offset \(offset): \(message)" }
}

/// One step of a path.
enum JSONPathSegment: Sendable {
    case child(JSONPathSelector)
    case descendants(JSONPathSelector)

    var isDefinite: Bool {
        if case .child(let selector) = self { return selector.isDefinite }
        return false
    }

    static func apply(_ segments: ArraySlice<JSONPathSegment>, to nodes: [JSONValue], root: JSONValue) -> [JSONValue] {
        var current = nodes
        for segment in segments {
            var next: [JSONValue] = []
            for node in current {
                switch segment {
                case .child(let selector): selector.select(from: node, root: root, into: &next)
                case .descendants(let selector): selectDescendants(selector, from: node, root: root, into: &next)
                }
            }
            current = next
        }
        return current
    }

    /// `..selector`: the selector applied to the node and to every value below it.
    private static func selectDescendants(_ selector: JSONPathSelector, from node: JSONValue, root: JSONValue, into out: inout [JSONValue]) {
        selector.select(from: node, root: root, into: &out)
        switch node {
        case .array(let elements): for element in elements { selectDescendants(selector, from: element, root: root, into: &out) }
        case .object(let members): for member in members { selectDescendants(selector, from: member.value, root: root, into: &out) }
        default: break
        }
    }
}

/// What one step selects from a value.
enum JSONPathSelector: Sendable {
    case names([String])
    case indices([Int])
    case wildcard
    case slice(start: Int?, end: Int?, step: Int)
    case filter(JSONPathFilter)

    var isDefinite: Bool {
        switch self {
        case .names(let names): names.count == 1
        case .indices(let indices): indices.count == 1
        case .wildcard, .slice, .filter: false
        }
    }

    func select(from node: JSONValue, root: JSONValue, into out: inout [JSONValue]) {
        switch (self, node) {
        case (.names(let names), .object(let members)):
            for name in names {
                // Duplicate names: the last one counts, as Jackson keeps it.
                if let member = members.last(where: { $0.key.unicodeScalars.elementsEqual(name.unicodeScalars) }) { out.append(member.value) }
            }
        case (.indices(let indices), .array(let elements)):
            for index in indices {
                let position = index < 0 ? elements.count + index : index
                if elements.indices.contains(position) { out.append(elements[position]) }
            }
        case (.wildcard, .array(let elements)):
            out.append(contentsOf: elements)
        case (.wildcard, .object(let members)):
            out.append(contentsOf: members.map(\.value))
        case (.slice(let start, let end, let step), .array(let elements)):
            out.append(contentsOf: Self.slice(elements, start: start, end: end, step: step))
        case (.filter(let filter), .array(let elements)):
            out.append(contentsOf: elements.filter { filter.holds(for: $0, root: root) })
        case (.filter(let filter), .object):
            // Jayway applies a filter on an object to the object itself.
            if filter.holds(for: node, root: root) { out.append(node) }
        default:
            break
        }
    }

    /// Python-style slicing: negative bounds count from the end, bounds are clamped.
    private static func slice(_ elements: [JSONValue], start: Int?, end: Int?, step: Int) -> [JSONValue] {
        sliceIndices(count: elements.count, start: start, end: end, step: step).map { elements[$0] }
    }

    /// The positions a slice selects in an array of `count` elements, in the slice's order.
    static func sliceIndices(count: Int, start: Int?, end: Int?, step: Int) -> [Int] {
        func clamp(_ bound: Int?, _ fallback: Int) -> Int {
            guard let bound else { return fallback }
            let resolved = bound < 0 ? max(count + bound, step > 0 ? 0 : -1) : min(bound, step > 0 ? count : count - 1)
            return resolved
        }
        var result: [Int] = []
        if step > 0 {
            var index = clamp(start, 0)
            let stop = clamp(end, count)
            while index < stop {
                if index >= 0 { result.append(index) }
                let (next, overflow) = index.addingReportingOverflow(step)
                if overflow { break }
                index = next
            }
        } else if step < 0 {
            var index = clamp(start, count - 1)
            let stop = clamp(end, -1)
            while index > stop {
                if index < count, index >= 0 { result.append(index) }
                let (next, overflow) = index.addingReportingOverflow(step)
                if overflow { break }
                index = next
            }
        }
        return result
    }
}
