/// Where a byte offset falls in UTF-8 text, as an editor shows it: the one line-and-column count the
/// JSON and XML readers' errors share.
enum TextPosition {
    /// One-based line (lines end with a line feed) and column (counted in Unicode scalars: UTF-8 lead
    /// bytes) of `offset` in `bytes`. Only runs when an error is reported, so it costs the happy path nothing.
    static func lineAndColumn(of offset: Int, in bytes: some RandomAccessCollection<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(offset, 0)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
