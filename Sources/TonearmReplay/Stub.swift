import Foundation
import Tonearm

/// An inline stub: replies for one method and URL, or a regex rule. Stubs compile into one
/// ``ReplayEngine``: exact stubs as tracks (several replies form a first-in-first-out queue whose last
/// reply repeats), rules after them in declared order.
///
/// ```swift
/// let tonearm = try TonearmSession.stubs([
///     .get("https://api.example.com/me", .json(#"{"name":"Ada"}"#)),
///     .post("https://api.example.com/jobs", .status(202)),
///     .get("https://api.example.com/jobs/1", .text("running"), .failure(.timedOut), .text("done")),
///     .rule(#"^https://api\.example\.com/items/\d+$"#, method: "GET", .json("{}")),
/// ])
/// ```
///
/// Exact stubs match on method, URL and query (not on body or headers); use a rule with body
/// conditions, or a cassette, to tell requests apart by body.
public struct Stub: Sendable {
    enum Kind: Sendable {
        case exact(method: String, url: String, replies: [Reply])
        case rule(method: String?, pattern: String, target: Rule.Target, priority: Int?, reply: Reply)
    }

    let kind: Kind

    /// Replies to `method` requests for `url`, in order; the last one repeats.
    public static func request(_ method: String, _ url: String, _ replies: Reply...) -> Stub {
        request(method, url, replies: replies)
    }

    /// Replies to `method` requests for `url`, in order; the last one repeats.
    public static func request(_ method: String, _ url: String, replies: [Reply]) -> Stub {
        Stub(kind: .exact(method: method.uppercased(), url: url, replies: replies))
    }

    /// Replies to GET requests for `url`, in order; the last one repeats.
    public static func get(_ url: String, _ replies: Reply...) -> Stub { request("GET", url, replies: replies) }
    /// Replies to POST requests for `url`, in order; the last one repeats.
    public static func post(_ url: String, _ replies: Reply...) -> Stub { request("POST", url, replies: replies) }
    /// Replies to PUT requests for `url`, in order; the last one repeats.
    public static func put(_ url: String, _ replies: Reply...) -> Stub { request("PUT", url, replies: replies) }
    /// Replies to PATCH requests for `url`, in order; the last one repeats.
    public static func patch(_ url: String, _ replies: Reply...) -> Stub { request("PATCH", url, replies: replies) }
    /// Replies to DELETE requests for `url`, in order; the last one repeats.
    public static func delete(_ url: String, _ replies: Reply...) -> Stub { request("DELETE", url, replies: replies) }

    /// A regex rule: answers every request (of `method`, when given) whose normalised URL (or path, with
    /// `target: .path`) the expression finds a match in. Lower `priority` numbers are tried first.
    public static func rule(
        _ pattern: String, method: String? = nil, target: Rule.Target = .url, priority: Int? = nil, _ reply: Reply
    ) -> Stub {
        Stub(kind: .rule(method: method, pattern: pattern, target: target, priority: priority, reply: reply))
    }

    /// A short label for errors: `GET https://…` or `rule /pattern/`.
    var label: String {
        switch kind {
        case .exact(let method, let url, _): "\(method) \(url)"
        case .rule(let method, let pattern, _, _, _): "rule \(method.map { $0 + " " } ?? "")/\(pattern)/"
        }
    }
}
