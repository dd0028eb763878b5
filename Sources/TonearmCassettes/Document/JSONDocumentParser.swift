import Tonearm

/// Builds a ``DocumentNode`` tree with byte offsets from the core's ``JSONReader`` (the one JSON
/// reader; this file only shapes its tokens into the cassette tree).
///
/// Numbers are kept as written, chosen members can be left unbuilt (validated, kept as a byte range)
/// so large JSON bodies cost one scan, and trailing commas can be accepted (Vinyl cassettes have them).
struct JSONDocumentParser {
    /// Parser settings.
    struct Options: Sendable {
        /// Accept `[1, 2,]` and `{"a": 1,}`.
        var allowsTrailingCommas = false
        /// Members with these names have their values validated but kept as ``DocumentNode/Value/raw``.
        var opaqueKeys: Set<String> = []
    }

    private var reader: JSONReader
    private let opaqueKeys: Set<String>

    /// Parses one JSON document (surrounding whitespace allowed, a UTF-8 byte-order mark skipped).
    static func parse(_ source: DocumentSource, options: Options = Options()) throws(CassetteError) -> DocumentNode {
        let result: Result<DocumentNode, JSONSyntaxError> = source.bytes.withUnsafeBufferPointer { buffer in
            let readerOptions = JSONReader.Options(allowsTrailingCommas: options.allowsTrailingCommas, skipsByteOrderMark: true)
            var parser = JSONDocumentParser(reader: JSONReader(buffer, options: readerOptions), opaqueKeys: options.opaqueKeys)
            do throws(JSONSyntaxError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let node): return node
        case .failure(let problem):
            throw source.error(at: .offset(problem.offset), path: nil, expected: problem.expected, found: problem.found)
        }
    }

    /// Whether `bytes` is exactly one strict JSON value with no white space outside strings, so that
    /// re-indenting it and compacting it again gives back the same bytes.
    static func isCompactJSON(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            do throws(JSONSyntaxError) {
                let range = try reader.skipValue()
                return range == 0..<buffer.count && !JSONLayout.hasWhitespaceOutsideStrings(buffer)
            } catch {
                return false
            }
        }
    }

    /// The byte range of the (already validated) JSON value starting at `offset`, or `nil` when none
    /// starts there; lets a caller keep a value's exact text.
    static func valueRange(in bytes: [UInt8], at offset: Int) -> Range<Int>? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer, valueAt: offset)
            return try? reader.skipValue()
        }
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> DocumentNode {
        let node = try build(reader.value())
        try reader.end()
        return node
    }

    /// The node whose first token the reader just returned.
    private mutating func build(_ token: JSONReader.Token) throws(JSONSyntaxError) -> DocumentNode {
        let location = SourceLocation.offset(reader.valueOffset)
        switch token {
        case .null: return DocumentNode(value: .null, location: location)
        case .bool(let flag): return DocumentNode(value: .bool(flag), location: location)
        case .number(let text): return DocumentNode(value: .number(text), location: location)
        case .string(let text): return DocumentNode(value: .string(text), location: location)
        case .arrayStart:
            var elements: [DocumentNode] = []
            while try reader.nextElement() {
                elements.append(try build(reader.value()))
            }
            return DocumentNode(value: .array(elements), location: location)
        case .objectStart:
            var members: [DocumentNode.Member] = []
            while let key = try reader.nextKey() {
                let value: DocumentNode
                if opaqueKeys.contains(key) {
                    let range = try reader.skipValue()
                    value = DocumentNode(value: .raw(range), location: .offset(range.lowerBound))
                } else {
                    value = try build(reader.value())
                }
                members.append(DocumentNode.Member(key: key, value: value))
            }
            return DocumentNode(value: .object(members), location: location)
        }
    }
}
