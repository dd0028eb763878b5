import Foundation
import Tonearm

/// Headers that describe one connection rather than the message (RFC 9110 §7.6.1): never forwarded,
/// recorded or replayed.
enum HopByHop {
    static let names: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade",
    ]

    /// `fields` without the hop-by-hop headers, those the `Connection` header names, and `also`.
    static func removing(from fields: [HeaderField], also: Set<String> = []) -> [HeaderField] {
        let named = fields.values(named: "Connection").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let dropped = names.union(named).union(also)
        return fields.filter { !dropped.contains($0.name.lowercased()) }
    }
}
