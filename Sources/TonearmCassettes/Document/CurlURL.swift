/// The URL curl requests for the one on its command line.
enum CurlURL {
    /// `word` as curl sends it: `http://` when it has no scheme, `/` when it has no path, without a
    /// fragment. Refuses a scheme other than http and https, a URL with blanks or control characters
    /// (curl refuses them too), and, without `-g`, the `{a,b}` and `[1-3]` globs curl would expand into
    /// several requests.
    static func normalized(_ word: ShellWord, globoff: Bool, text: PastedText) throws(RequestTextError) -> String {
        let bytes = word.bytes
        if let bad = bytes.firstIndex(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw text.error(
                at: word.offset, expected: "a URL without blanks or control characters (percent-encode them)",
                found: "`\(word.text)`, with byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) in it")
        }
        var scheme = "http"
        var rest = word.text[...]
        if let separator = rest.range(of: "://") {
            scheme = rest[..<separator.lowerBound].lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw text.error(at: word.offset, expected: "an http or https URL", found: "`\(word.text)`")
            }
            rest = rest[separator.upperBound...]
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        guard !authority.isEmpty else {
            throw text.error(at: word.offset, expected: "a URL with a host", found: "`\(word.text)`")
        }
        if !globoff && (word.text.contains("{") || word.text.contains("}") || target.contains("[") || target.contains("]")) {
            throw text.error(
                at: word.offset,
                expected: "a URL without `{…}` or `[…]` (curl expands them into several requests; add -g to send them as they are)",
                found: "`\(word.text)`")
        }
        if !target.hasPrefix("/") { target = "/" + target }
        return scheme + "://" + authority + target
    }

    /// Appends `query` as `-G` does: after `&` when the URL has a query, after `?` when it has none.
    static func appendQuery(_ query: String, to url: inout String) {
        if let mark = url.firstIndex(of: "?") {
            if url.index(after: mark) != url.endIndex { url += "&" }
        } else {
            url += "?"
        }
        url += query
    }
}
