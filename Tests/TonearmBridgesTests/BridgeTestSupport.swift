import Foundation
import TonearmTestSupport

/// The upstream every bridge test records from: the URLSession tests' local server, answering
/// `GET /greetings/<name>` with a JSON greeting, `POST /greetings` and `POST /echo` with what was posted,
/// and `GET /large` with a body several chunks long.
enum BridgeUpstream {
    static let largeBody = [UInt8]((0..<100_000).map { UInt8(truncatingIfNeeded: $0 % 251) })

    static func start() throws -> HTTPTestServer {
        try HTTPTestServer { request in
            let json = [("Content-Type", "application/json")]
            switch (request.method, request.path) {
            case ("GET", let path) where path.hasPrefix("/greetings/"):
                let name = path.dropFirst("/greetings/".count)
                let style = request.target.contains("style=loud") ? "HELLO" : "Hello"
                return .init(headers: json + [("X-Served-By", "upstream")], text: #"{"message":"\#(style), \#(name)"}"#)
            case ("POST", "/greetings"):
                let body = String(decoding: request.body, as: UTF8.self)
                let name = body.split(separator: "\"").dropFirst(3).first.map(String.init) ?? "?"
                return .init(status: 201, headers: json, text: #"{"message":"Created for \#(name)"}"#)
            case ("POST", "/echo"):
                return .init(headers: [("Content-Type", "application/octet-stream")], body: request.body)
            case ("GET", "/large"):
                return .init(body: largeBody)
            default:
                return .init(status: 404, text: "no route")
            }
        }
    }
}
