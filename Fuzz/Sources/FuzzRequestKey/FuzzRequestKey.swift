import Tonearm

/// The input is an HTTP request in a loose text form: `METHOD URL` on the first line, `Name: value`
/// header lines, an empty line, then the body. Any bytes make some request, so every input exercises
/// URL normalisation, header folding, body classification and key hashing.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzRequestKey(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let request = FuzzedRequest(bytes).request
    for canonicalizer in canonicalizers {
        let canonical = canonicalizer.canonicalize(request)
        let key = canonicalizer.key(for: request)
        // The key is a function of the canonical form: the same request keys the same way twice.
        if key != canonicalizer.key(for: request) || canonical != canonicalizer.canonicalize(request) {
            fatalError("canonicalisation is not deterministic for \(canonical)")
        }
    }
    return 0
}

private let canonicalizers = [
    RequestCanonicalizer(),
    RequestCanonicalizer(MatchingConfiguration(
        attributes: [.method, .path, .query, .body, .header("Accept"), .header("Content-Type")],
        ignoredQueryParameters: ["_"], ignoredJSONFields: [JSONPointer(tokens: ["id"])])),
]

/// Splits fuzz input into a request.
private struct FuzzedRequest {
    var request: Request

    init(_ bytes: [UInt8]) {
        let newline = UInt8(ascii: "\n")
        var lines = bytes.split(separator: newline, maxSplits: 64, omittingEmptySubsequences: false)[...]
        let first = lines.popFirst().map { String(decoding: $0, as: UTF8.self) } ?? ""
        let space = first.firstIndex(of: " ")
        let method = space.map { String(first[..<$0]) } ?? "GET"
        let url = space.map { String(first[first.index(after: $0)...]) } ?? first
        var headers: [HeaderField] = []
        while let line = lines.popFirst(), !line.isEmpty {
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            headers.append(HeaderField(String(text[..<colon]), String(text[text.index(after: colon)...])))
        }
        let body = Array(lines.joined(separator: [newline]))
        request = Request(method: method, url: url, headers: headers, body: body)
    }
}
