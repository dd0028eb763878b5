@testable import Tonearm

/// Small builders that keep tests about behaviour rather than setup.
enum Fixtures {
    static func get(_ url: String, headers: [HeaderField] = []) -> Request {
        Request(method: "GET", url: url, headers: headers)
    }

    static func postJSON(_ url: String, _ json: String) -> Request {
        Request(method: "POST", url: url, headers: [HeaderField("Content-Type", "application/json")], body: json)
    }

    static func track(_ request: Request, status: Int, name: String? = nil) -> Track {
        Track(request: request, response: Response(status: status, body: "status \(status)"), name: name)
    }

    /// The status a result answers with, -1 for a transport error, nil for a miss.
    static func status(_ result: MatchResult) -> Int? {
        guard let hit = result.hit else { return nil }
        return hit.track.response?.status ?? -1
    }
}
