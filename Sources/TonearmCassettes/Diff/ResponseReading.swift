import Tonearm

/// How a diff reads what a track answers: which headers count and how a body is read. The one reading
/// behind both the comparison (``CassetteComparer``) and the textconv listing (``CassetteListing``), so
/// that `git diff` through the listing and `tonearm diff` leave out the same things.
struct ResponseReading {
    /// A body as read for comparing.
    enum Body {
        /// JSON in its canonical (RFC 8785) form, with the ignored locations left out: equal bytes are
        /// equal documents, so most comparisons never build a ``JSONValue``.
        case json(canonical: [UInt8])
        /// UTF-8 text a person can read.
        case text(String)
        /// Anything else.
        case binary
    }

    let options: CassetteDiffOptions
    /// The configuration keys are made under (the options' ignored fields included).
    let configuration: MatchingConfiguration
    /// The options' ignored headers, lowercased once.
    private let ignoredHeaders: Set<String>
    /// Leaves the ignored JSON locations out of response bodies: the ones requests leave out of their
    /// keys, since what varies in a request body (an id, a timestamp) varies in the answer too.
    private let json: JSONCanonicalizer

    init(options: CassetteDiffOptions, old: MatchingConfiguration, new: MatchingConfiguration) {
        self.options = options
        configuration = options.effectiveConfiguration(old: old, new: new)
        ignoredHeaders = Set(options.ignoredHeaders.map { $0.lowercased() })
        json = JSONCanonicalizer(ignoring: configuration.ignoredJSONFields)
    }

    /// The headers that count, by lowercased name, each with its values in order, sorted by name.
    func headers(_ fields: [HeaderField]) -> [(name: String, values: [String])] {
        var grouped: [String: [String]] = [:]
        for field in fields {
            let name = field.name.lowercased()
            if !ignoredHeaders.contains(name) { grouped[name, default: []].append(field.value) }
        }
        return grouped.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { (name: $0.key, values: $0.value) }
    }

    /// `bytes` read as JSON when its `Content-Type` says JSON, or says nothing and it starts like a JSON
    /// object or array (recorders often keep no header); else as text when it is readable UTF-8.
    func body(_ bytes: [UInt8], contentType: String?) -> Body {
        if mayBeJSON(bytes, contentType: contentType), let canonical = try? json.canonicalize(bytes) {
            return .json(canonical: canonical)
        }
        if let text = BodyStorage.readableText(bytes) { return .text(text) }
        return .binary
    }

    private func mayBeJSON(_ bytes: [UInt8], contentType: String?) -> Bool {
        if let contentType { return MediaType.isJSON(contentType, additional: configuration.additionalJSONMediaTypes) }
        let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
}
