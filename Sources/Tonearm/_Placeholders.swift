// TEMPORARY: minimal stand-ins for the URL and JSON pieces being written in parallel. Deleted on integration.
public struct NormalizedURL: Sendable, Hashable {
    public var scheme = "", host = "", port: Int? = nil, path = "/", query: String? = nil
    public var origin: String { scheme.isEmpty ? "" : scheme + "://" + host + (port.map { ":\($0)" } ?? "") }
    public var withoutQuery: String { origin + path }
    public init(_ url: String) {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if let q = rest.firstIndex(of: "?") { query = String(rest[rest.index(after: q)...]); rest = rest[..<q] }
        if let r = rest.firstRange(of: "://") {
            scheme = String(rest[..<r.lowerBound]).lowercased()
            let after = rest[r.upperBound...]
            let slash = after.firstIndex(of: "/") ?? after.endIndex
            host = String(after[..<slash]).lowercased()
            path = after[slash...].isEmpty ? "/" : String(after[slash...])
        } else { path = String(rest) }
    }
}
public struct FormPair: Sendable, Hashable, Comparable {
    public var name: String, value: String
    public var decodedName: String { name }
    public var decodedValue: String { value }
    public static func < (l: FormPair, r: FormPair) -> Bool {
        l.name.utf8.lexicographicallyPrecedes(r.name.utf8) || (l.name == r.name && l.value.utf8.lexicographicallyPrecedes(r.value.utf8))
    }
}
public enum FormEncoding {
    public static func pairs(_ text: some StringProtocol) -> [FormPair] {
        text.split(separator: "&").map { p in
            let parts = p.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return FormPair(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
        }
    }
    public static func pairs(_ bytes: UnsafeRawBufferPointer) -> [FormPair] { pairs(String(decoding: bytes, as: UTF8.self)) }
    public static func canonicalPairs(_ bytes: UnsafeRawBufferPointer, ignoring: Set<String>) -> [FormPair] {
        pairs(bytes).filter { !ignoring.contains($0.name) }.sorted()
    }
    public static func serialize(_ pairs: [FormPair], appendingTo output: inout [UInt8]) {
        output.append(contentsOf: pairs.map { $0.name + "=" + $0.value }.joined(separator: "&").utf8)
    }
    public static func canonicalName(_ name: String) -> String { name }
}
