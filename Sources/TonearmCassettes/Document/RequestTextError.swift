/// Why ``RequestText/parse(_:)`` refused a pasted curl command or HTTP request, and where.
///
/// The position is in the pasted text: 1-based line and column, the column counted in Unicode scalars
/// (what an editor shows for text without combining marks), so a text box can put its cursor there.
public struct RequestTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem on ``line``, in Unicode scalars.
    public var column: Int
    /// What was expected there, e.g. "a URL" or "a header line `Name: value`".
    public var expected: String
    /// What was found instead, e.g. "`-F` (multipart forms are not supported from text)".
    public var found: String

    /// Creates an error.
    public init(line: Int, column: Int, expected: String, found: String) {
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
    }

    /// `line L, column C: expected X, found Y`.
    public var description: String {
        "line \(line), column \(column): expected \(expected), found \(found)"
    }
}

/// The pasted text as UTF-8 bytes, turning byte offsets into the lines and columns errors report.
struct PastedText: Sendable {
    let bytes: [UInt8]

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The 1-based line and scalar column of the byte at `offset` (the end of the text when past it).
    func lineColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        let end = min(max(offset, 0), bytes.count)
        for position in 0..<end {
            let byte = bytes[position]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// An error at the byte `offset`.
    func error(at offset: Int, expected: String, found: String) -> RequestTextError {
        let (line, column) = lineColumn(of: offset)
        return RequestTextError(line: line, column: column, expected: expected, found: found)
    }
}
