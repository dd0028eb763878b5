import Foundation
import Tonearm
import TonearmCassettes
import TonearmReplay

/// The control API under `/__tonearm/`, on the same port as the traffic (see docs/server.md).
///
/// | Method and path | What it does |
/// | --- | --- |
/// | `GET health` | mode, strategy, cassette, counts |
/// | `POST cassette` `{"path","mode","strategy"}` | saves the current cassette and loads another, inside the cassette folder |
/// | `POST stubs` (a rule file, JSON or YAML) | adds stubs answering after everything else |
/// | `POST reset` | rewinds the strategies: every track playable again |
/// | `POST save` | writes the recording now |
/// | `GET journal`, `GET journal.har`, `DELETE journal` | the exchanges, as JSON or HAR; forget them |
/// | `GET misses` | the misses with their reports |
///
/// Answers are JSON written by the core's one JSON writer (``JSONValue``, RFC 8785 text: compact,
/// members sorted), like the WireMock admin API's.
///
/// Each handler reads the HTTP request, calls the one operation the Swift API calls too
/// (``CassetteOperations``), and encodes the result. What only a client over HTTP is held to is checked
/// here, not in the operations: cassette paths stay inside ``cassetteFolder``, while the Swift API,
/// called by the test process itself, loads any path.
struct ControlAPI: Sendable {
    let cassettes: CassetteOperations
    /// The folder `POST cassette` may load and record in (`--cassette-dir`).
    let cassetteFolder: FolderConfinement
    let journal: Journal
    let address: ServerAddress

    /// Whether the call is a health probe: answered from memory, and never to wait behind other work.
    static func isHealthCheck(method: String, path: String) -> Bool {
        (path == "health" || path.isEmpty) && method.uppercased() == "GET"
    }

    /// The answer to a control call; `path` follows `/__tonearm/`.
    func answer(path: String, query: String, request: ServerRequest) -> Response {
        switch (request.method.uppercased(), path) {
        case ("GET", "health"), ("GET", ""):
            return .adminJSON(health())
        case ("POST", "cassette"), ("PUT", "cassette"):
            return loadCassette(request)
        case ("POST", "stubs"):
            return addStubs(request)
        case ("POST", "reset"):
            cassettes.reset()
            return .adminJSON(health())
        case ("POST", "save"):
            do throws(ServerError) {
                try cassettes.save()
                return .adminJSON(health())
            } catch {
                return ServerCore.plainText(500, error.description)
            }
        case ("GET", "journal"):
            return .adminJSON(.array(journal.entries.map(\.controlDocument)))
        case ("GET", "journal.har"):
            do throws(CassetteError) {
                return Response(status: 200, headers: [HeaderField("Content-Type", "application/json")], body: try journal.har(redacting: cassettes.configuration.redaction))
            } catch {
                return ServerCore.plainText(500, error.description)
            }
        case ("DELETE", "journal"):
            journal.clear()
            return Response(status: 204)
        case ("GET", "misses"):
            let misses = journal.misses
            if MissResponse.acceptsJSON(request.headers) || !request.headers.values(named: "Accept").contains(where: { $0.contains("text/plain") }) {
                let source = cassettes.current.url?.path ?? "the loaded rules"
                return .adminJSON(.array(misses.map { $0.report.jsonDocument(source: source) }))
            }
            return ServerCore.plainText(200, misses.map(\.report.description).joined(separator: "\n\n"))
        default:
            return ServerCore.plainText(404, """
                no control endpoint \(request.method) /__tonearm/\(path). Endpoints: GET health, POST cassette, \
                POST stubs, POST reset, POST save, GET journal, GET journal.har, DELETE journal, GET misses
                """)
        }
    }

    /// What health answers: `{"status":"ok","url","mode","strategy","cassette","recorded","exchanges",
    /// "misses","stubs"}`, without `cassette` when none is loaded.
    func health() -> JSONValue {
        let loaded = cassettes.current
        return .object([
            "status": .string("ok"),
            "url": .string(address.url),
            "mode": .string(loaded.mode.serverName),
            "strategy": .string(loaded.strategyName),
            "cassette": loaded.url.map { .string($0.path) },
            "recorded": .integer(loaded.recordedCount),
            "exchanges": .integer(journal.total),
            "misses": .integer(journal.misses.count),
            "stubs": .integer(loaded.engine.stubs),
        ])
    }

    /// The body of `POST cassette`: `{"path","mode","strategy"}`, each a string, `null` or left out.
    private struct CassetteRequest {
        var path: String?
        var mode: String?
        var strategy: String?

        /// What is wrong with a body that is not such an object.
        struct Malformed: Error, CustomStringConvertible {
            var description: String
        }

        /// Reads `body`.
        static func read(_ body: [UInt8]) throws(Malformed) -> CassetteRequest {
            let document: JSONValue
            do throws(JSONSyntaxError) {
                document = try JSONValue(parsing: body)
            } catch {
                throw Malformed(description: error.description)
            }
            guard case .object = document else { throw Malformed(description: "the body is not an object") }
            var request = CassetteRequest()
            let fields: [(name: String, field: WritableKeyPath<CassetteRequest, String?>)] = [
                ("path", \.path), ("mode", \.mode), ("strategy", \.strategy),
            ]
            for (name, field) in fields {
                switch document[member: name] {
                case nil, .null?: continue
                case .string(let text)?: request[keyPath: field] = text
                case let other?: throw Malformed(description: "$.\(name) is \(other.canonicalText), not a string")
                }
            }
            return request
        }
    }

    private func loadCassette(_ request: ServerRequest) -> Response {
        let body: CassetteRequest
        do throws(CassetteRequest.Malformed) {
            body = try CassetteRequest.read(request.body)
        } catch {
            return ServerCore.plainText(400, "expected a JSON object {\"path\": …, \"mode\": …, \"strategy\": …}: \(error)")
        }
        var mode: RecordMode?
        if let name = body.mode {
            guard let parsed = RecordMode(serverName: name) else {
                return ServerCore.plainText(400, "mode \(name.debugDescription) is not one of replay, missing, all, passthrough")
            }
            mode = parsed
        }
        var strategy: StrategyHint?
        if let name = body.strategy {
            guard let parsed = StrategyHint(rawValue: name) else {
                return ServerCore.plainText(400, "strategy \(name.debugDescription) is not one of \(StrategyHint.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            strategy = parsed
        }
        var file: URL?
        if let path = body.path {
            do throws(FolderConfinement.Escape) {
                file = try cassetteFolder.resolve(path)
            } catch {
                return ServerCore.plainText(403, """
                    cassette path \(error): the control API loads and records cassettes only inside \(cassetteFolder.root.path). \
                    Give a path inside it (relative paths are resolved against it), or start the server with \
                    --cassette-dir naming a folder that holds the cassette
                    """)
            }
        }
        do throws(ServerError) {
            try cassettes.load(file, mode: mode, strategy: strategy)
            return .adminJSON(health())
        } catch {
            return ServerCore.plainText(422, error.description)
        }
    }

    private func addStubs(_ request: ServerRequest) -> Response {
        let contentType = request.headers.first(named: "Content-Type")?.lowercased() ?? ""
        let syntax: RuleFileFormat.Syntax = contentType.contains("yaml") ? .yaml : .json
        do throws(ServerError) {
            try cassettes.addStubs(request.body, syntax: syntax, file: "POST /__tonearm/stubs")
            return .adminJSON(health())
        } catch {
            if let cassette = error.cassetteError { return ServerCore.plainText(422, cassette.description) }
            if let rule = error.ruleError { return ServerCore.plainText(422, "invalid stub: \(rule)") }
            return ServerCore.plainText(422, error.description)
        }
    }
}

extension JournalEntry {
    /// The entry as the control API lists it: `{"time","method","url","status","source","detail",
    /// "latencyMilliseconds","truncated"}`, without `status` when nothing answered, and `truncated`
    /// (`{"requestBodyBytes","responseBodyBytes"}`, the full sizes of the bodies kept cut short) only
    /// when a body was cut.
    var controlDocument: JSONValue {
        let parts = latency.components
        return .object([
            "time": .string(ISO8601DateFormatter().string(from: time)),
            "method": .string(request.method),
            "url": .string(request.url),
            "status": response.map { .integer($0.status) },
            "source": .string(source.kind.rawValue),
            "detail": .string(source.detail),
            "latencyMilliseconds": .double(Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15),
            "truncated": truncation.map { truncation in
                .object([
                    "requestBodyBytes": truncation.requestBodyBytes.map(JSONValue.integer),
                    "responseBodyBytes": truncation.responseBodyBytes.map(JSONValue.integer),
                ])
            },
        ])
    }
}
