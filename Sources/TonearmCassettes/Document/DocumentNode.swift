/// A parsed JSON, YAML or property-list document: one tree shape for every input format, so the
/// importers read fields the same way and report positions the same way.
struct DocumentNode: Sendable {
    /// A member of an object, in document order (duplicates are kept; readers take the first).
    struct Member: Sendable {
        var key: String
        var value: DocumentNode
    }

    /// The node's content.
    indirect enum Value: Sendable {
        case null
        case bool(Bool)
        /// A number as written, so no precision is lost.
        case number(String)
        case string(String)
        /// Bytes from a YAML `!!binary` or a property-list `<data>`.
        case binary([UInt8])
        case array([DocumentNode])
        case object([Member])
        /// A JSON value left unparsed (validated, not built), as a byte range of the source.
        case raw(Range<Int>)
    }

    var value: Value
    /// Where the node starts.
    var location: SourceLocation
    /// A YAML tag that is not one of the core schema's, e.g. Ruby's local `!binary`.
    var tag: String? = nil

    /// "a string", "an object"... for error messages; an unbuilt value is described by its first byte
    /// in `source`.
    func kindDescription(in source: DocumentSource?) -> String {
        guard case .raw(let range) = value, let source, range.lowerBound < source.bytes.count else { return kindDescription }
        switch source.bytes[range.lowerBound] {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return "a number"
        }
    }

    /// "a string", "an object"... for error messages.
    var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .binary: "binary data"
        case .array: "an array"
        case .object: "an object"
        case .raw: "a JSON value"
        }
    }
}

/// Where a node starts: a byte offset (JSON, turned into line and column only when an error is
/// reported, so loading does no line counting), a line and column (YAML), or unknown (property lists).
enum SourceLocation: Sendable, Hashable {
    case offset(Int)
    case lineColumn(line: Int, column: Int)
    case unknown
}
