import Foundation
import Tonearm
import TonearmCassettes
import TonearmURLSession

/// The control API under `/__tonearm/`, on the same port as the traffic (see docs/server.md).
///
/// | Method and path | What it does |
/// | --- | --- |
/// | `GET health` | mode, strategy, cassette, counts |
/// | `POST cassette` `{"path","mode","strategy"}` | saves the current cassette and loads another |
/// | `POST stubs` (a rule file, JSON or YAML) | adds stubs answering after everything else |
/// | `POST reset` | rewinds the strategies: every track playable again |
/// | `POST save` | writes the recording now |
/// | `GET journal`, `GET journal.har`, `DELETE journal` | the exchanges, as JSON or HAR; forget them |
/// | `GET misses` | the misses with their reports |
extension ServerCore {
    func control(path: String, query: String, request: ServerRequest) async -> Response {
        switch (request.method.uppercased(), path) {
        case ("GET", "health"), ("GET", ""):
            return json(health())
        case ("POST", "cassette"), ("PUT", "cassette"):
            return loadCassette(request)
        case ("POST", "stubs"):
            return addStubs(request)
        case ("POST", "reset"):
            current.engine.reset()
            return json(health())
        case ("POST", "save"):
            do throws(ServerError) {
                try current.save()
                return json(health())
            } catch {
                return Self.plainText(500, error.description)
            }
        case ("GET", "journal"):
            return json(journal.entries.map(JournalDocument.init))
        case ("GET", "journal.har"):
            do throws(CassetteError) {
                return Response(status: 200, headers: [HeaderField("Content-Type", "application/json")], body: try journal.har())
            } catch {
                return Self.plainText(500, error.description)
            }
        case ("DELETE", "journal"):
            journal.clear()
            return Response(status: 204)
        case ("GET", "misses"):
            let misses = journal.misses
            if MissReply.acceptsJSON(request.headers) || !request.headers.values(named: "Accept").contains(where: { $0.contains("text/plain") }) {
                return json(misses.map { MissDocument(report: $0.report, source: current.url?.path ?? "the loaded rules") })
            }
            return Self.plainText(200, misses.map(\.report.description).joined(separator: "\n\n"))
        default:
            return Self.plainText(404, """
                no control endpoint \(request.method) /__tonearm/\(path). Endpoints: GET health, POST cassette, \
                POST stubs, POST reset, POST save, GET journal, GET journal.har, DELETE journal, GET misses
                """)
        }
    }

    /// What health answers.
    struct Health: Encodable {
        var status = "ok"
        var url: String
        var mode: String
        var strategy: String
        var cassette: String?
        var recorded: Int
        var exchanges: Int
        var misses: Int
        var stubs: Int
    }

    func health() -> Health {
        let loaded = current
        return Health(
            url: baseURL, mode: loaded.mode.serverName, strategy: loaded.strategyName, cassette: loaded.url?.path,
            recorded: loaded.recordedCount, exchanges: journal.total, misses: journal.misses.count, stubs: loaded.engine.stubs)
    }

    private struct CassetteRequest: Decodable {
        var path: String?
        var mode: String?
        var strategy: String?
    }

    private func loadCassette(_ request: ServerRequest) -> Response {
        let body: CassetteRequest
        do {
            body = try JSONDecoder().decode(CassetteRequest.self, from: Data(request.body))
        } catch {
            return Self.plainText(400, "expected a JSON object {\"path\": …, \"mode\": …, \"strategy\": …}: \(error)")
        }
        let loaded = current
        var mode = loaded.mode
        if let name = body.mode {
            guard let parsed = RecordMode(serverName: name) else {
                return Self.plainText(400, "mode \(name.debugDescription) is not one of replay, missing, all, passthrough")
            }
            mode = parsed
        }
        var strategy: StrategyHint?
        if let name = body.strategy {
            guard let parsed = StrategyHint(rawValue: name) else {
                return Self.plainText(400, "strategy \(name.debugDescription) is not one of \(StrategyHint.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            strategy = parsed
        }
        do throws(ServerError) {
            let next = try LoadedCassette(
                url: body.path.map { URL(fileURLWithPath: $0) }, rules: configuration.rules, mode: mode, strategy: strategy,
                matching: configuration.matching, redaction: configuration.redaction)
            try switchCassette(to: next)
            return json(health())
        } catch {
            return Self.plainText(422, error.description)
        }
    }

    private func addStubs(_ request: ServerRequest) -> Response {
        let contentType = request.headers.first(named: "Content-Type")?.lowercased() ?? ""
        let syntax: RuleFileFormat.Syntax = contentType.contains("yaml") ? .yaml : .json
        do throws(CassetteError) {
            let stubs = try RuleFileFormat.decode(request.body, syntax: syntax, file: "POST /__tonearm/stubs")
            do throws(RuleError) {
                try current.engine.addStubs(stubs)
            } catch {
                return Self.plainText(422, "invalid stub: \(error)")
            }
            return json(health())
        } catch {
            return Self.plainText(422, error.description)
        }
    }

    private func json(_ value: some Encodable) -> Response {
        let body = (try? JSONEncoder.tonearm.encode(value)).map(Array.init) ?? []
        return Response(status: 200, headers: [HeaderField("Content-Type", "application/json")], body: body)
    }
}

/// A journal entry as the control API lists it.
struct JournalDocument: Encodable {
    var time: String
    var method: String
    var url: String
    var status: Int?
    var source: String
    var detail: String
    var latencyMilliseconds: Double

    init(_ entry: JournalEntry) {
        time = ISO8601DateFormatter().string(from: entry.time)
        method = entry.request.method
        url = entry.request.url
        status = entry.response?.status
        source = entry.source.kind
        detail = entry.source.detail
        let parts = entry.latency.components
        latencyMilliseconds = Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}
