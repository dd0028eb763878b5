/// The normalised form of a request: the exact bytes that are hashed into its ``RequestKey``, plus the
/// pieces a miss report needs to say what differs.
///
/// The byte layout is specified in `docs/key-spec.md`: one line per included attribute, in the order
/// method, url, path, query, headers (by name), body, each line `label SP length SP value LF`.
public struct CanonicalRequest: Sendable, Hashable, CustomStringConvertible {
    /// A remark about how the request was read, e.g. a JSON body that did not parse.
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// The remark, in a sentence.
        public var message: String
        /// A human-readable description.
        public var description: String { message }
    }

    /// The bytes that are hashed.
    public let bytes: [UInt8]
    /// The normalised URL (computed whatever the attributes, for reports and rules).
    public let url: NormalizedURL
    /// The uppercased method.
    public let method: String
    /// How the body was read, when the body is part of the key.
    public let bodyKind: BodyKind?
    /// Remarks about how the request was read; empty in the common case.
    public let notes: [Note]

    /// The canonical form as text; non-UTF-8 body bytes show as U+FFFD.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The canonical form's lines as `(label, value)` pairs, in order.
    public var fields: [(label: String, value: [UInt8])] {
        CanonicalFieldReader.fields(of: bytes)
    }

    /// The value of the line labelled `label`, or `nil` when that attribute is not in the key.
    public func field(_ label: String) -> [UInt8]? {
        fields.first { $0.label == label }?.value
    }
}

/// Reads the `label SP length SP value LF` lines of a canonical form back.
enum CanonicalFieldReader {
    static func fields(of bytes: [UInt8]) -> [(label: String, value: [UInt8])] {
        var result: [(label: String, value: [UInt8])] = []
        var position = 0
        while position < bytes.count {
            guard let labelEnd = bytes[position...].firstIndex(of: 0x20) else { break }
            let label = String(decoding: bytes[position..<labelEnd], as: UTF8.self)
            guard let lengthEnd = bytes[(labelEnd + 1)...].firstIndex(of: 0x20),
                let length = Int(String(decoding: bytes[(labelEnd + 1)..<lengthEnd], as: UTF8.self)),
                lengthEnd + 1 + length < bytes.count
            else { break }
            let valueStart = lengthEnd + 1
            result.append((label, Array(bytes[valueStart..<(valueStart + length)])))
            position = valueStart + length + 1
        }
        return result
    }
}
