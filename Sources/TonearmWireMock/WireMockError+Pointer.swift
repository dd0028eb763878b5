/// Where WireMock 2.35.1 points an error that Tonearm locates more precisely (checked against the jar
/// by scripts/wiremock-diff.py, the `operand-*` and `pointer-*` cases).
///
/// WireMock's pointer is the path Jackson was reading when a deserializer threw, so it stops at the
/// object a custom deserializer reads whole: a value matcher (`/request/headers/A` for a refused
/// `/request/headers/A/sameAs`; an element of its `and`/`or` or of a nested `matchesJsonPath` matcher
/// adds only its index: `/request/queryParameters/q/0`), a body pattern (`/request/bodyPatterns/0`),
/// the request pattern for its URL regular expressions (`/request`), a response's `headers`, a
/// `delayDistribution` for its `type`; the whole document is `/`. Clients and WireMock's own tests read
/// that pointer, so it is the one reported; Tonearm's precise member goes in the detail.
extension WireMockError {
    /// ``pointer`` as WireMock reports it; `nil` when there is none.
    var reportedPointer: String? {
        guard let pointer else { return nil }
        // A query parameter's name (journal filters) is not a JSON Pointer: as it is.
        guard pointer.isEmpty || pointer.hasPrefix("/") else { return pointer }
        return Self.wireMockPointer(for: pointer)
    }

    /// WireMock's pointer for the member at `pointer`.
    static func wireMockPointer(for pointer: String) -> String {
        let segments = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        func joined(_ part: some Collection<String>) -> String { part.isEmpty ? "/" : "/" + part.joined(separator: "/") }
        guard !segments.isEmpty else { return "/" }
        if segments.first == "metadata" { return pointer }
        if let response = segments.firstIndex(of: "response") {
            let rest = segments[(response + 1)...]
            if rest.first == "headers" { return joined(segments[...(response + 1)]) }
            if rest.first == "delayDistribution", rest.dropFirst().first == "type" { return joined(segments[...(response + 1)]) }
            return pointer
        }
        if segments.first == "delayDistribution", segments.dropFirst().first == "type" { return "/delayDistribution" }
        for (index, segment) in segments.enumerated() {
            if segment == "urlPattern" || segment == "urlPathPattern" { return joined(segments[..<index]) }
            if ["headers", "queryParameters", "cookies", "bodyPatterns", "pathParameters", "formParameters"].contains(segment), index + 1 < segments.count {
                // The matcher object; below it, only the indexes of and/or elements count (not an
                // option's, such as equalToXml's exemptedComparisons).
                let below = Array(segments[(index + 2)...])
                let elements = below.indices.filter { Int(below[$0]) != nil && $0 > 0 && ["and", "or"].contains(below[$0 - 1]) }.map { below[$0] }
                return joined(Array(segments[...(index + 1)]) + elements)
            }
        }
        return pointer
    }
}
