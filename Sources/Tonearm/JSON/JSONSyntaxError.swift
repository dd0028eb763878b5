/// Why a JSON text was refused, and where.
///
/// The canonicaliser is strict on purpose: two bodies that a lenient parser would read alike could
/// otherwise hash differently, or two different bodies alike. Every refusal therefore names the exact
/// place so that whoever recorded the body can find and fix it.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero-based byte offset of the offending byte in the input (equal to the input's length when the
    /// text ended too early).
    public var offset: Int
    /// One-based line of `offset`; lines are separated by line feeds (U+000A).
    public var line: Int
    /// One-based column of `offset`, counted in Unicode scalars (UTF-8 lead bytes) since the last line
    /// feed, which is what an editor shows for a UTF-8 file.
    public var column: Int
    /// What the parser would have accepted at `offset`, phrased to follow the word "expected", e.g.
    /// `"a value"`, `"',' or '}'"`, `"a hex digit"` or `"no duplicate member \"id\""`.
    public var expected: String
    /// What was there instead, when that helps, e.g. `"']'"` or `"the end of the data"`.
    public var found: String?

    /// Creates an error for an already known position.
    public init(offset: Int, line: Int, column: Int, expected: String, found: String? = nil) {
        self.offset = offset
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
    }

    /// A one-line message such as `line 3, column 14 (byte 52): expected ',' or '}'`.
    public var description: String {
        "line \(line), column \(column) (byte \(offset)): expected \(expected)" + (found.map { ", found \($0)" } ?? "")
    }
}

extension JSONSyntaxError {
    /// Locates `offset` in `input`. Only runs when an error is thrown, so the scan costs nothing on the
    /// happy path.
    init(at offset: Int, in input: UnsafeRawBufferPointer, expected: String, found: String? = nil) {
        let (line, column) = TextPosition.lineAndColumn(of: offset, in: input)
        self.init(offset: offset, line: line, column: column, expected: expected, found: found)
    }
}
