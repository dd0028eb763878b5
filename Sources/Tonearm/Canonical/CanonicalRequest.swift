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

/// Reads the `label SP length SP value LF` lines of a canonical form back: the one parser of the
/// format, shared by the public `fields` view and the miss report's in-place line hashing.
enum CanonicalFieldReader {
    /// Calls `body` with the byte ranges of each line's label and value, in order, without copying.
    /// Stops at the first malformed line (which the canonicaliser never writes).
    static func forEachLine(in bytes: UnsafeRawBufferPointer, _ body: (_ label: Range<Int>, _ value: Range<Int>) -> Void) {
        var position = 0
        while position < bytes.count, let labelEnd = bytes[position...].firstIndex(of: 0x20) {
            var length = 0
            var cursor = labelEnd + 1
            while cursor < bytes.count, bytes[cursor] != 0x20 {
                guard bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 else { return }
                length = length * 10 + Int(bytes[cursor] &- 0x30)
                cursor += 1
            }
            let valueStart = cursor + 1
            guard valueStart + length < bytes.count, bytes[valueStart + length] == 0x0A else { return }
            body(position..<labelEnd, valueStart..<(valueStart + length))
            position = valueStart + length + 1
        }
    }

    static func fields(of bytes: [UInt8]) -> [(label: String, value: [UInt8])] {
        var result: [(label: String, value: [UInt8])] = []
        bytes.withUnsafeBytes { buffer in
            forEachLine(in: buffer) { label, value in
                result.append((String(decoding: buffer[label], as: UTF8.self), Array(buffer[value])))
            }
        }
        return result
    }
}
