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
        /// The member path from the root object (e.g. `["log", "entries"]`) of the one large value a
        /// format reads element by element with ``DocumentCursor/forEachElement(options:_:)``: it is
        /// validated but kept as ``DocumentNode/Value/raw``, so no tree is built for the whole file.
        var streamedPath: [String] = []
    }

    private var reader: JSONReader
    /// What `reader` reads.
    private let buffer: UnsafeBufferPointer<UInt8>
    private let opaqueKeys: Set<String>
    private let streamedPath: [String]

    /// Parses one JSON document (surrounding whitespace allowed, a UTF-8 byte-order mark skipped).
    static func parse(_ source: DocumentSource, options: Options = Options()) throws(CassetteError) -> DocumentNode {
        let result: Result<DocumentNode, JSONSyntaxError> = source.bytes.withUnsafeBufferPointer { buffer in
            let readerOptions = JSONReader.Options(allowsTrailingCommas: options.allowsTrailingCommas, skipsByteOrderMark: true)
            var parser = JSONDocumentParser(buffer: buffer, reader: JSONReader(buffer, options: readerOptions), options: options)
            do throws(JSONSyntaxError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let node): return node
        case .failure(let problem): throw source.error(problem)
        }
    }

    /// Builds the elements of `array`, an unbuilt value at `range` of its source (validated by
    /// ``parse(_:options:)``), one at a time, handing each to `body` and dropping it before the next,
    /// so a large array costs one element's tree at a time. Fails (at `array`) when it is not an array.
    static func forEachElement(
        of array: DocumentCursor, range: Range<Int>, options: Options,
        _ body: (DocumentCursor) throws(CassetteError) -> Void
    ) throws(CassetteError) {
        let source = array.source
        var failure: CassetteError?
        source.bytes.withUnsafeBufferPointer { buffer in
            let readerOptions = JSONReader.Options(allowsTrailingCommas: options.allowsTrailingCommas)
            var parser = JSONDocumentParser(buffer: buffer, reader: JSONReader(buffer, options: readerOptions, valueAt: range.lowerBound), options: options)
            do throws(CassetteError) {
                guard range.lowerBound < buffer.count, buffer[range.lowerBound] == UInt8(ascii: "[") else {
                    throw array.error(expected: "an array")
                }
                do throws(JSONSyntaxError) { _ = try parser.reader.value() } catch { throw source.error(error) }  // "["
                var index = 0
                while true {
                    let element: DocumentNode?
                    do throws(JSONSyntaxError) {
                        element = try parser.reader.nextElement() ? parser.build(parser.reader.value(), path: nil) : nil
                    } catch {
                        throw source.error(error)
                    }
                    guard let element else { break }
                    try body(DocumentCursor(node: element, path: array.path.appending(.index(index)), source: source))
                    index += 1
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The (validated) JSON string at `range` of `source`, decoded.
    static func string(at range: Range<Int>, in source: DocumentSource) throws(CassetteError) -> String {
        let result: Result<JSONReader.Token, JSONSyntaxError> = source.bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer, valueAt: range.lowerBound)
            do throws(JSONSyntaxError) { return .success(try reader.value()) } catch { return .failure(error) }
        }
        switch result {
        case .success(.string(let text)): return text
        case .success: throw source.error(at: .offset(range.lowerBound), path: nil, expected: "a string", found: nil)
        case .failure(let problem): throw source.error(problem)
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

    private init(buffer: UnsafeBufferPointer<UInt8>, reader: JSONReader, options: Options) {
        self.buffer = buffer
        self.reader = reader
        opaqueKeys = options.opaqueKeys
        streamedPath = options.streamedPath
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> DocumentNode {
        let node = try build(reader.value(), path: streamedPath.isEmpty ? nil : streamedPath[...])
        try reader.end()
        return node
    }

    /// The node whose first token the reader just returned; `streamed` is what remains of
    /// ``Options/streamedPath`` below this node (`nil` once off that path).
    private mutating func build(_ token: JSONReader.Token, path streamed: ArraySlice<String>?) throws(JSONSyntaxError) -> DocumentNode {
        let location = SourceLocation.offset(reader.valueOffset)
        switch token {
        case .null: return DocumentNode(value: .null, location: location)
        case .bool(let flag): return DocumentNode(value: .bool(flag), location: location)
        case .number(let text): return DocumentNode(value: .number(text), location: location)
        case .string(let text): return DocumentNode(value: .string(text), location: location)
        case .arrayStart:
            var elements: [DocumentNode] = []
            while try reader.nextElement() {
                elements.append(try build(reader.value(), path: nil))
            }
            return DocumentNode(value: .array(elements), location: location)
        case .objectStart:
            var members: [DocumentNode.Member] = []
            while let key = try reader.nextKey() {
                let value: DocumentNode
                let below = streamed.flatMap { $0.first == key ? $0.dropFirst() : nil }
                if opaqueKeys.contains(key) || below?.isEmpty == true {
                    let range = try reader.skipValue()
                    // A streamed `null` stays null, so readers see it as absent as they would when built.
                    let isNull = below != nil && range.count == 4 && buffer[range.lowerBound] == UInt8(ascii: "n")
                    value = DocumentNode(value: isNull ? .null : .raw(range), location: .offset(range.lowerBound))
                } else {
                    value = try build(reader.value(), path: below)
                }
                members.append(DocumentNode.Member(key: key, value: value))
            }
            return DocumentNode(value: .object(members), location: location)
        }
    }
}

extension DocumentSource {
    /// A syntax error of this document as a cassette error with file, line and column.
    func error(_ problem: JSONSyntaxError) -> CassetteError {
        error(at: .offset(problem.offset), path: nil, expected: problem.expected, found: problem.found)
    }
}
