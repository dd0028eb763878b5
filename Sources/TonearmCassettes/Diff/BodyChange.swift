import Tonearm

/// How a response body differs: by JSON pointer when both bodies are JSON, by the first differing line
/// when both are text, by size and hash otherwise.
public struct BodyChange: Sendable, Hashable {
    /// How the two bodies were read. Readings may grow (form bodies, multipart parts), so this is a
    /// struct with static members rather than an enum: compare with `==` and read ``rawValue``.
    public struct Reading: Sendable, Hashable, CustomStringConvertible {
        private enum Storage: String, Sendable, Hashable {
            case json, text, binary
        }

        private let storage: Storage

        private init(_ storage: Storage) {
            self.storage = storage
        }

        /// Both bodies are JSON (by `Content-Type`, or by content when there is none): see
        /// ``BodyChange/jsonDifferences``.
        public static let json = Reading(.json)
        /// Both bodies are UTF-8 text: see ``BodyChange/firstDifferingLine``.
        public static let text = Reading(.text)
        /// At least one body is not text: see ``BodyChange/old`` and ``BodyChange/new``.
        public static let binary = Reading(.binary)

        /// `json`, `text` or `binary`, as the JSON rendering writes it.
        public var rawValue: String { storage.rawValue }

        /// ``rawValue``.
        public var description: String { rawValue }
    }

    /// How the bodies were read.
    public var reading: Reading
    /// For ``Reading/json``: every place the new body differs from the old one, by RFC 6901 pointer, in
    /// document order, ignored fields left out. Empty for the other readings.
    public var jsonDifferences: [JSONDifference]
    /// For ``Reading/text``: the first line that differs; `nil` for the other readings.
    public var firstDifferingLine: TextLineChange?
    /// The old body's size and hash (of the bytes as recorded).
    public var old: BodySummary
    /// The new body's size and hash.
    public var new: BodySummary

    /// Creates a body change.
    public init(
        reading: Reading, jsonDifferences: [JSONDifference] = [], firstDifferingLine: TextLineChange? = nil,
        old: BodySummary, new: BodySummary
    ) {
        self.reading = reading
        self.jsonDifferences = jsonDifferences
        self.firstDifferingLine = firstDifferingLine
        self.old = old
        self.new = new
    }
}
