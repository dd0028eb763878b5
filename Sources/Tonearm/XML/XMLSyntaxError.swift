/// Why a text was not read as XML, and where: a line and column (one-based, columns counted in Unicode
/// scalars) and what the reader expected there.
public struct XMLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero-based byte offset of the problem.
    public var offset: Int
    /// One-based line of `offset` (lines end with a line feed).
    public var line: Int
    /// One-based column of `offset`, in Unicode scalars.
    public var column: Int
    /// What went wrong, e.g. `expected '>'` or `a DOCTYPE (DTDs are refused: no entity expansion)`.
    public var message: String

    /// Creates an error at `offset` in `bytes`, finding its line and column.
    init(at offset: Int, in bytes: [UInt8], _ message: String) {
        let end = min(max(offset, 0), bytes.count)
        (line, column) = TextPosition.lineAndColumn(of: end, in: bytes)
        self.offset = end
        self.message = message
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
