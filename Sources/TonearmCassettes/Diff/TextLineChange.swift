/// The first line where two text bodies differ.
public struct TextLineChange: Sendable, Hashable {
    /// The line's number, from 1.
    public var line: Int
    /// The old body's line there; `nil` when the old body has fewer lines.
    public var old: String?
    /// The new body's line there; `nil` when the new body has fewer lines.
    public var new: String?
    /// How many lines the old body has.
    public var oldLineCount: Int
    /// How many lines the new body has.
    public var newLineCount: Int

    /// Creates a line change.
    public init(line: Int, old: String?, new: String?, oldLineCount: Int, newLineCount: Int) {
        self.line = line
        self.old = old
        self.new = new
        self.oldLineCount = oldLineCount
        self.newLineCount = newLineCount
    }
}
