import Tonearm

/// A node with the path that led to it, so every type error names the file, position and path.
struct DocumentCursor: Sendable {
    let node: DocumentNode
    let path: DocumentPath
    let source: DocumentSource

    init(root node: DocumentNode, source: DocumentSource) {
        self.init(node: node, path: .root, source: source)
    }

    init(node: DocumentNode, path: DocumentPath, source: DocumentSource) {
        self.node = node
        self.path = path
        self.source = source
    }

    /// An error at this node.
    func error(expected: String, found: String? = nil) -> CassetteError {
        source.error(at: node.location, path: path.description, expected: expected, found: found ?? node.kindDescription(in: source))
    }

    /// An error about a missing member of this object.
    func missing(_ key: String, expected: String) -> CassetteError {
        source.error(
            at: node.location, path: path.appending(.key(key)).description, expected: expected,
            found: "nothing (the member is missing)")
    }

    var isNull: Bool {
        if case .null = node.value { return true }
        return false
    }

    /// Whether this holds something: not null, and not an empty string, array or object.
    var carriesData: Bool {
        switch node.value {
        case .null: false
        case .string(let text): !text.isEmpty
        case .binary(let bytes): !bytes.isEmpty
        case .array(let elements): !elements.isEmpty
        case .object(let members): !members.isEmpty
        default: true
        }
    }

    // MARK: Objects

    /// The members of this object, in order.
    func members() throws(CassetteError) -> [(key: String, value: DocumentCursor)] {
        guard case .object(let members) = node.value else { throw error(expected: "an object") }
        return members.map { ($0.key, child($0.value, .key($0.key))) }
    }

    /// The member named `key`, or `nil` when it is absent or null. Fails when this is not an object.
    func member(_ key: String) throws(CassetteError) -> DocumentCursor? {
        guard case .object(let members) = node.value else { throw error(expected: "an object") }
        guard let found = members.first(where: { $0.key == key }) else { return nil }
        if case .null = found.value.value { return nil }
        return child(found.value, .key(key))
    }

    /// The member named `key`; fails when it is absent.
    func required(_ key: String, expected: String) throws(CassetteError) -> DocumentCursor {
        guard let found = try member(key) else { throw missing(key, expected: expected) }
        return found
    }

    /// Whether this is an object with a member named `key`.
    func has(_ key: String) -> Bool {
        guard case .object(let members) = node.value else { return false }
        return members.contains { $0.key == key }
    }

    // MARK: Arrays

    /// The elements of this array.
    func elements() throws(CassetteError) -> [DocumentCursor] {
        guard case .array(let elements) = node.value else { throw error(expected: "an array") }
        return elements.enumerated().map { child($0.element, .index($0.offset)) }
    }

    /// Calls `body` with each element of this array in order. An array left unbuilt by
    /// ``JSONDocumentParser/Options/streamedPath`` is built one element at a time (with `options`, the
    /// ones it was parsed with) and each element dropped before the next.
    func forEachElement(options: JSONDocumentParser.Options, _ body: (DocumentCursor) throws(CassetteError) -> Void) throws(CassetteError) {
        if case .raw(let range) = node.value {
            try JSONDocumentParser.forEachElement(of: self, range: range, options: options, body)
        } else {
            for element in try elements() { try body(element) }
        }
    }

    // MARK: Scalars

    /// Whether this is a string (built, or left unbuilt by the parser).
    var isString: Bool {
        switch node.value {
        case .string: true
        case .raw(let range): range.lowerBound < source.bytes.count && source.bytes[range.lowerBound] == UInt8(ascii: "\"")
        default: false
        }
    }

    func string() throws(CassetteError) -> String {
        if case .raw(let range) = node.value, isString {
            return try JSONDocumentParser.string(at: range, in: source)
        }
        guard case .string(let text) = node.value else { throw error(expected: "a string") }
        return text
    }

    /// A string, or a number or boolean written as text (YAML and loose JSON often quote neither).
    func scalarText() throws(CassetteError) -> String {
        switch node.value {
        case .string(let text), .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        default: throw error(expected: "a string")
        }
    }

    /// An object of headers whose values are each a scalar or a list of scalars (a repeated header), as
    /// WireMock and WireMock.Net write them, in order.
    func headerFields() throws(CassetteError) -> [HeaderField] {
        var headers: [HeaderField] = []
        for (name, value) in try members() {
            if case .array = value.node.value {
                for item in try value.elements() { headers.append(HeaderField(name, try item.scalarText())) }
            } else {
                headers.append(HeaderField(name, try value.scalarText()))
            }
        }
        return headers
    }

    func int() throws(CassetteError) -> Int {
        switch node.value {
        case .number(let text), .string(let text):
            if let value = Int(text) { return value }
            if let value = Double(text), value.rounded() == value, abs(value) < 1e15 { return Int(value) }
            throw error(expected: "an integer", found: text.debugDescription)
        default:
            throw error(expected: "an integer")
        }
    }

    func double() throws(CassetteError) -> Double {
        switch node.value {
        case .number(let text), .string(let text):
            guard let value = Double(text), value.isFinite else {
                throw error(expected: "a number", found: text.debugDescription)
            }
            return value
        default:
            throw error(expected: "a number")
        }
    }

    func bool() throws(CassetteError) -> Bool {
        guard case .bool(let flag) = node.value else { throw error(expected: "true or false") }
        return flag
    }

    func optionalString(_ key: String) throws(CassetteError) -> String? {
        try member(key)?.string()
    }

    func optionalInt(_ key: String) throws(CassetteError) -> Int? {
        try member(key)?.int()
    }

    private func child(_ node: DocumentNode, _ component: DocumentPath.Component) -> DocumentCursor {
        DocumentCursor(node: node, path: path.appending(component), source: source)
    }
}
