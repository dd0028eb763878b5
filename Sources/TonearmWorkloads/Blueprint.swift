import Tonearm

/// How one generated track's request was built, kept so the stream can send variants of it.
struct Blueprint: Sendable {
    enum Body: Sendable {
        case none
        case json(GeneratedJSON)
        case form([(String, String)])
        case binary([UInt8])
    }

    var method: String
    var origin: String
    var path: String
    var query: [(String, String)]
    var body: Body

    func request(permuteQuery: Bool = false, reorderJSON: Bool = false) -> Request {
        var url = origin + path
        let pairs = permuteQuery ? query.reversed() : query
        if !pairs.isEmpty { url += "?" + pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&") }
        var headers = [HeaderField("Accept", "application/json"), HeaderField("User-Agent", "tonearm-workload/1")]
        var bytes: [UInt8] = []
        switch body {
        case .none:
            break
        case .json(let document):
            headers.append(HeaderField("Content-Type", "application/json; charset=utf-8"))
            bytes = Array(document.text(reordered: reorderJSON).utf8)
        case .form(let fields):
            headers.append(HeaderField("Content-Type", "application/x-www-form-urlencoded"))
            bytes = Array(fields.map { "\($0.0)=\($0.1)" }.joined(separator: "&").utf8)
        case .binary(let data):
            headers.append(HeaderField("Content-Type", "application/octet-stream"))
            bytes = data
        }
        return Request(method: method, url: url, headers: headers, body: bytes)
    }

    var hasJSONBody: Bool {
        if case .json = body { return true }
        return false
    }
}
