/// Reduces a path to its route shape by replacing identifier-like segments with `{id}`, so a miss on
/// `/users/43` finds the tracks recorded for `/users/42` as its closest candidates.
enum RouteTemplate {
    static func template(of path: String) -> String {
        guard path.utf8.contains(where: isDigit) else { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { looksLikeIdentifier($0) ? "{id}" : String($0) }
            .joined(separator: "/")
    }

    /// Numbers, and long runs of hex digits and dashes (UUIDs, hashes, object ids).
    private static func looksLikeIdentifier(_ segment: Substring) -> Bool {
        let bytes = segment.utf8
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy(isDigit) { return true }
        return bytes.count >= 8 && bytes.contains(where: isDigit)
            && bytes.allSatisfy { isDigit($0) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) || $0 == 0x2D }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
