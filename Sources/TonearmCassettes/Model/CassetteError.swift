/// Why a file could not be loaded: which file, where in it, and what was expected there.
///
/// Loading is all-or-nothing: when any part of a file is malformed the whole load fails with one of
/// these, and nothing half-built is returned.
public struct CassetteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as given to the loader (a path or a name); `nil` for in-memory data without a name.
    public var file: String?
    /// The 1-based line of the problem, when known.
    public var line: Int?
    /// The 1-based column (in bytes for JSON, in characters for YAML), when known.
    public var column: Int?
    /// Where in the document, as a path like `$.tracks[3].request.url`, when known.
    public var path: String?
    /// What was expected there, e.g. "a string" or "a JSON value".
    public var expected: String
    /// What was found instead, when that helps, e.g. "a number".
    public var found: String?

    /// Creates an error.
    public init(
        file: String? = nil, line: Int? = nil, column: Int? = nil, path: String? = nil,
        expected: String, found: String? = nil
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.expected = expected
        self.found = found
    }

    /// `file:line:column: at PATH: expected X, found Y`, leaving out what is unknown.
    public var description: String {
        var location = file ?? "<data>"
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        var text = location + ": "
        if let path { text += "at \(path): " }
        text += "expected \(expected)"
        if let found { text += ", found \(found)" }
        return text
    }

    /// The same error attributed to `file`, for errors raised before the file name was known.
    func inFile(_ file: String?) -> CassetteError {
        var copy = self
        if copy.file == nil { copy.file = file }
        return copy
    }
}
