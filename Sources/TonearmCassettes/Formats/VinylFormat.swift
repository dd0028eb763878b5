import Tonearm

/// Velhotes/Vinyl cassettes: a top-level array of `{request, response}` (trailing commas allowed, as
/// Vinyl's own files have them). A DVR cassette given here is read as DVR, as Vinyl itself does.
public enum VinylFormat {
    /// Reads a Vinyl (or DVR) cassette; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        let root = DocumentCursor(root: try JSONDocumentParser.parse(source, options: .init(allowsTrailingCommas: true)), source: source)
        if case .object = root.node.value { return try DVRFormat.decode(root) }
        var entries: [CassetteEntry] = []
        for track in try root.elements() {
            let request = try RecordedMessage.request(try track.required("request", expected: "a request object"))
            let response = try RecordedMessage.response(try track.required("response", expected: "a response object"))
            entries.append(CassetteEntry(Track(request: request, response: response)))
        }
        return CassetteImport(cassette: Cassette(entries: entries))
    }
}
