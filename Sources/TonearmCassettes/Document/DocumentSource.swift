/// The text a document was parsed from, kept so errors can turn byte offsets into lines and columns.
final class DocumentSource: Sendable {
    /// The file name used in errors.
    let file: String?
    /// The document bytes.
    let bytes: [UInt8]

    init(file: String?, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
    }

    /// The 1-based line and byte column of `offset`.
    func lineColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        let end = min(max(offset, 0), bytes.count)
        for position in 0..<end where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return (line, end - lineStart + 1)
    }

    /// An error at `location` and `path`.
    func error(at location: SourceLocation, path: String?, expected: String, found: String?) -> CassetteError {
        switch location {
        case .offset(let offset):
            let (line, column) = lineColumn(of: offset)
            return CassetteError(file: file, line: line, column: column, path: path, expected: expected, found: found)
        case .lineColumn(let line, let column):
            return CassetteError(file: file, line: line, column: column, path: path, expected: expected, found: found)
        case .unknown:
            return CassetteError(file: file, path: path, expected: expected, found: found)
        }
    }
}
