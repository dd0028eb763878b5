import Foundation
import Tonearm

/// How a miss is told to the client: a status (404 by default), a `Tonearm-Miss` header naming the
/// reason, and the miss report as the body, as text or, for `Accept: application/json`, as JSON.
enum MissReply {
    /// The header naming why nothing answered.
    static let reasonHeader = "Tonearm-Miss"

    /// A short token for the reason: `not-recorded`, `exhausted`, `out-of-order`, `sequence-finished`,
    /// `no-rule-matched` or `custom`; for a chain, the first stage's (the tracks').
    static func token(_ reason: MissReason) -> String {
        if let stages = reason.stages { return stages.first.map(token) ?? MissReason.notRecorded.identifier }
        return reason.identifier
    }

    static func response(for report: MissReport, status: Int, acceptsJSON: Bool, source: String) -> Response {
        let reason = token(report.reason)
        if acceptsJSON {
            let body = MissDocument(report: report, source: source)
            let bytes = (try? JSONEncoder.tonearm.encode(body)).map(Array.init) ?? []
            return Response(status: status, headers: [
                HeaderField("Content-Type", "application/json"), HeaderField(reasonHeader, reason),
            ], body: bytes)
        }
        return Response(status: status, headers: [
            HeaderField("Content-Type", "text/plain; charset=utf-8"), HeaderField(reasonHeader, reason),
        ], body: "Tonearm: no recorded answer in \(source)\n\(report)\n")
    }

    /// Whether the client asked for JSON.
    static func acceptsJSON(_ headers: [HeaderField]) -> Bool {
        headers.values(named: "Accept").contains { $0.lowercased().contains("json") }
    }
}

/// A miss report as JSON.
struct MissDocument: Encodable {
    struct Near: Encodable {
        var position: Int
        var name: String?
        var method: String
        var url: String
        var differences: [String]
        var description: String
    }

    var error = "tonearm-miss"
    var source: String
    var reason: String
    var reasonCode: String
    var method: String
    var url: String
    var key: String
    var nearest: [Near]
    var report: String

    init(report: MissReport, source: String) {
        self.source = source
        reason = report.reason.description
        reasonCode = MissReply.token(report.reason)
        method = report.request.method
        url = report.request.url
        key = report.key.hex
        nearest = report.nearest.map {
            Near(position: $0.position, name: $0.track.name, method: $0.track.request.method, url: $0.track.request.url,
                 differences: $0.differences.map(\.description), description: $0.description)
        }
        self.report = report.description
    }
}

extension JSONEncoder {
    /// Keys in a stable order and slashes unescaped, for readable control-API answers.
    static var tonearm: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
