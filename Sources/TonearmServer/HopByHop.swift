import Foundation
import Tonearm

/// Headers that describe one connection rather than the message (RFC 9110 §7.6.1): never forwarded,
/// recorded or replayed.
enum HopByHop {
    static let names = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade",
    ]

    /// `["host"]`, for the callers that drop `Host` too: one array for every request, not one each.
    static let andHost = ["host"]

    /// Bit n set when one of ``names`` is n bytes long.
    private static let lengths: UInt64 = names.reduce(0) { $0 | 1 << UInt64($1.utf8.count) }

    /// Whether `name` is one of ``names``. A name of no listed length (nearly every header) is answered
    /// without comparing it to the nine.
    private static func isListed(_ name: String) -> Bool {
        let count = name.utf8.count
        guard count < 64, lengths & (1 << UInt64(count)) != 0 else { return false }
        return names.contains { name.equalsIgnoringASCIICase($0) }
    }

    /// `fields` without the hop-by-hop headers, those the `Connection` header names, and `also`
    /// (lowercased names).
    ///
    /// Most messages carry none of them, so that case returns `fields` itself: no new array, no
    /// lowercased copies of names (this runs for every replayed response).
    static func removing(from fields: [HeaderField], also: [String] = []) -> [HeaderField] {
        // A constant, not a variable the closures capture: a captured `var` is checked for exclusive
        // access (a runtime call) at each use, once per header.
        let named = fields.filter { $0.name.equalsIgnoringASCIICase("connection") }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        func dropped(_ name: String) -> Bool {
            isListed(name)
                || also.contains { name.equalsIgnoringASCIICase($0) }
                || named.contains { name.equalsIgnoringASCIICase($0) }
        }
        guard fields.contains(where: { dropped($0.name) }) else { return fields }
        return fields.filter { !dropped($0.name) }
    }
}
