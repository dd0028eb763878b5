import Foundation
import Tonearm

/// Headers that describe one connection rather than the message (RFC 9110 §7.6.1): never forwarded,
/// recorded or replayed.
enum HopByHop {
    static let names = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade",
    ]

    /// `fields` without the hop-by-hop headers, those the `Connection` header names, and `also`
    /// (lowercased names).
    ///
    /// Most messages carry none of them, so that case returns `fields` itself: no new array, no
    /// lowercased copies of names (this runs for every replayed response).
    static func removing(from fields: [HeaderField], also: [String] = []) -> [HeaderField] {
        var named: [String] = []
        for field in fields where field.name.equalsIgnoringASCIICase("connection") {
            named += field.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        func dropped(_ name: String) -> Bool {
            names.contains { name.equalsIgnoringASCIICase($0) }
                || also.contains { name.equalsIgnoringASCIICase($0) }
                || named.contains { name.equalsIgnoringASCIICase($0) }
        }
        guard fields.contains(where: { dropped($0.name) }) else { return fields }
        return fields.filter { !dropped($0.name) }
    }
}
