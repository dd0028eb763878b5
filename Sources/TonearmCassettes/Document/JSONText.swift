import Tonearm

/// JSON text as people read it.
package enum JSONText {
    /// `bytes` (one JSON document) pretty-printed with two-space indentation, members in the order
    /// written and numbers as written; `nil` when they are not JSON.
    package static func prettyPrinted(_ bytes: [UInt8]) -> [UInt8]? {
        let source = DocumentSource(file: nil, bytes: bytes)
        guard let node = try? JSONDocumentParser.parse(source) else { return nil }
        var text = JSONOutput(node, source: source).prettyPrinted()
        if text.last == 0x0A { text.removeLast() }
        return text
    }
}
