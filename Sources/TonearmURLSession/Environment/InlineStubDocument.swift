import Foundation
import Tonearm

/// The JSON accepted in `TONEARM_STUBS`: an array of stubs, each either exact (`method` + `url`) or a
/// rule (`pattern`), answering with a response or a simulated `error`.
///
/// ```json
/// [
///   {"method": "GET", "url": "https://api.example.com/me", "json": {"name": "Ada"}},
///   {"method": "GET", "url": "https://api.example.com/feed", "error": "notConnectedToInternet"},
///   {"pattern": "^https://api\\.example\\.com/items/\\d+$", "status": 404, "body": "gone",
///    "headers": {"Retry-After": "5"}, "delayMilliseconds": 50}
/// ]
/// ```
/// Entries with the same method and URL form a queue, answered in order.
struct InlineStubDocument: Decodable {
    struct Entry: Decodable {
        var method: String?
        var url: String?
        var pattern: String?
        var target: String?
        var priority: Int?
        var status: Int?
        var headers: [String: String]?
        var body: String?
        var json: LooseJSON?
        var error: String?
        var delayMilliseconds: Int?
    }

    var entries: [Entry]

    init(from decoder: any Decoder) throws {
        entries = try [Entry](from: decoder)
    }

    /// The stubs the document describes.
    ///
    /// - Throws: ``TonearmError/environment(variable:detail:)`` naming the entry, e.g. `$[2]: needs
    ///   either "url" or "pattern"`.
    func stubs(variable: String) throws(TonearmError) -> [Stub] {
        var stubs: [Stub] = []
        for (index, entry) in entries.enumerated() {
            let path = "$[\(index)]"
            let reply = try reply(for: entry, path: path, variable: variable)
            switch (entry.url, entry.pattern) {
            case (let url?, nil):
                stubs.append(.request((entry.method ?? "GET").uppercased(), url, reply))
            case (nil, let pattern?):
                let target: Rule.Target
                switch entry.target ?? "url" {
                case "url": target = .url
                case "path": target = .path
                case let other:
                    throw .environment(variable: variable, detail: "\(path).target: expected \"url\" or \"path\", found \(other.debugDescription)")
                }
                stubs.append(.rule(pattern, method: entry.method, target: target, priority: entry.priority, reply))
            default:
                throw .environment(variable: variable, detail: "\(path): needs either \"url\" or \"pattern\", not both or neither")
            }
        }
        return stubs
    }

    private func reply(for entry: Entry, path: String, variable: String) throws(TonearmError) -> Reply {
        var reply: Reply
        if let name = entry.error {
            guard let error = TransportError(identifier: name) else {
                throw .environment(variable: variable, detail: "\(path).error: \(name.debugDescription) is not a transport error (timedOut, notConnectedToInternet, networkConnectionLost, cannotFindHost, cannotConnectToHost, secureConnectionFailed)")
            }
            reply = .failure(error)
        } else {
            var headers = (entry.headers ?? [:]).sorted { $0.key < $1.key }.map { HTTPField($0.key, $0.value) }
            var body: [UInt8] = []
            if let json = entry.json {
                body = Array(json.serialized.utf8)
                if headers.first(named: "Content-Type") == nil { headers.insert(HTTPField("Content-Type", "application/json"), at: 0) }
            } else if let text = entry.body {
                body = Array(text.utf8)
            }
            reply = Reply(kind: .response(status: entry.status ?? 200, headers: headers, body: .bytes(body)), delay: nil)
        }
        if let milliseconds = entry.delayMilliseconds { reply = reply.delayed(by: .milliseconds(milliseconds)) }
        return reply
    }
}

/// Any JSON value, kept to be written back out as a response body.
enum LooseJSON: Decodable {
    case null, bool(Bool), number(Double), string(String), array([LooseJSON]), object([String: LooseJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([LooseJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: LooseJSON].self)) }
    }

    /// Compact JSON text, object members sorted so the body is the same on every run.
    var serialized: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
            return "\(value)"
        case .string(let value): return Self.quoted(value)
        case .array(let values): return "[" + values.map(\.serialized).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + $0.value.serialized }
                .joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
