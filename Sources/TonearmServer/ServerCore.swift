import Foundation
import NIOCore
import Synchronization
import Tonearm
import TonearmCassettes
import TonearmReplay

/// The state shared by every connection: the loaded cassette, the journal, the upstream client, and how
/// one request becomes one answer.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let journal: Journal
    let upstreamClient: UpstreamClient
    /// Stub mappings added through WireMock's admin API or loaded from `--root-dir`.
    let wireMock: WireMockStubs
    private let cassette: Mutex<LoadedCassette>
    /// `http://127.0.0.1:PORT`, known once bound; the rewriter and messages use it.
    private let listening = Mutex<String>("")

    init(configuration: ServerConfiguration, group: any EventLoopGroup) throws(ServerError) {
        self.configuration = configuration
        journal = Journal(limit: configuration.journalLimit)
        // The cassette loads first: a broken one fails the start before any client is created.
        cassette = Mutex(try LoadedCassette(
            url: configuration.cassette, rules: configuration.rules, mode: configuration.mode,
            strategy: configuration.strategy, matching: configuration.matching, redaction: configuration.redaction))
        wireMock = try WireMockStubs(rootDirectory: configuration.rootDirectory.map(WireMockRootDirectory.init))
        upstreamClient = UpstreamClient(
            group: group, timeout: configuration.upstreamTimeout, maximumBodySize: configuration.maximumBodySize)
    }

    var baseURL: String {
        get { listening.withLock { $0 } }
        set { listening.withLock { $0 = newValue } }
    }

    /// The cassette in force.
    var current: LoadedCassette { cassette.withLock { $0 } }

    /// Puts `next` in force and saves the one it replaces.
    func switchCassette(to next: LoadedCassette) throws(ServerError) {
        let previous = cassette.withLock { current in
            defer { current = next }
            return current
        }
        try previous.save()
    }

    /// The answer to one request.
    func answer(_ request: ServerRequest) async -> ServerReply {
        let started = ContinuousClock.now
        let time = Date()
        if let admin = WireMockAdmin.route(request.target) {
            return .response(wireMockAdmin(path: admin.path, query: admin.query, request: request))
        }
        // WireMock-style mappings match the path as sent, ahead of host-in-path routing.
        var mappingMiss: MissReport?
        if !wireMock.isEmpty, request.target.hasPrefix("/"), !request.target.hasPrefix(RequestRoute.controlPrefix + "/") {
            let answer = answerFromMappings(request)
            guard case .missed(let report) = answer else {
                return await serveMapping(answer, request: request, started: started, time: time)
            }
            mappingMiss = report
        }
        let loaded = current
        let route = RequestRoute.resolve(
            method: request.method, target: request.target, allowed: configuration.allowedHosts,
            upstream: configuration.upstream, replayOnly: loaded.mode == .never, replayHosts: loaded.trackHosts)
        var reply: ServerReply
        var source: JournalEntry.Source
        var miss: ServerMiss?
        var journaled = Request(method: request.method, url: request.target, headers: request.headers, body: request.body)
        switch route {
        case .control(let path, let query):
            let response = await control(path: path, query: query, request: request)
            return .response(response)  // control calls are not journaled: the journal is about the app's traffic
        case .refused(let status, let message):
            configuration.log("tonearm: refused \(request.method) \(request.target): \(message)")
            // The message goes in a header too: a response to CONNECT carries no body.
            reply = .response(Self.plainText(status, message, extra: [HeaderField("Tonearm-Refused", message)]))
            source = JournalEntry.Source(kind: "refused", detail: message)
        case .local(let target):
            journaled.url = target
            (reply, source, miss) = await respond(to: journaled, host: nil, loaded: loaded)
            if miss != nil, let mappingMiss {
                // Nothing else answers a local path either: the mappings' report says what came closest.
                (reply, source, miss) = mappingMissReply(mappingMiss, request: journaled)
            }
        case .upstream(let url, let host):
            journaled.url = url
            journaled.headers = HopByHop.removing(from: request.headers, also: ["host"])
            (reply, source, miss) = await respond(to: journaled, host: host, loaded: loaded)
        }
        let response: Response? = if case .response(let response) = reply { response } else { nil }
        journal.append(
            JournalEntry(time: time, request: journaled, response: response, source: source, latency: ContinuousClock.now - started),
            miss: miss)
        return reply
    }

    /// Replays, fetches or reports a miss for a request whose URL is the one it stands for: the cassette's
    /// replay session decides, as it does for URLSession; the server journals and waits out delays.
    private func respond(
        to request: Request, host: UpstreamHost?, loaded: LoadedCassette
    ) async -> (ServerReply, JournalEntry.Source, ServerMiss?) {
        guard host != nil || loaded.mode.replays else {
            let message = "no upstream for \(request.url): give the host as the first path component or start the server with --upstream"
            return (.response(Self.plainText(404, message)), JournalEntry.Source(kind: "refused", detail: message), nil)
        }
        let answer: SessionAnswer
        do {
            answer = if host == nil {
                loaded.session.answerWithoutNetwork(to: request)
            } else {
                try await loaded.session.answer(to: request) { [upstreamClient] request in try await upstreamClient.fetch(request) }
            }
        } catch {
            let failure = error as? UpstreamClient.Failure ?? UpstreamClient.Failure(status: 502, message: "\(error)")
            let origin = host?.origin ?? "upstream"
            configuration.log("tonearm: \(request.method) \(request.url): \(failure.message)")
            return (.response(Self.plainText(failure.status, failure.message, extra: [HeaderField("Tonearm-Upstream-Error", origin)])),
                    JournalEntry.Source(kind: "upstream-error", detail: failure.message), nil)
        }
        switch answer {
        case .replayed(let hit):
            if let delay = hit.track.delay { try? await Task.sleep(for: delay) }
            let answeredBy = loaded.engine.source(of: hit)
            let source = JournalEntry.Source(kind: answeredBy.kind, detail: answeredBy.description)
            switch hit.track.outcome {
            case .response(let response):
                return (.response(served(response, for: request)), source, nil)
            case .transportError(let error):
                return (.fault(ConnectionFault(error)), JournalEntry.Source(kind: "fault", detail: "\(answeredBy.description): \(error)"), nil)
            }
        case .missed(let report):
            let label = loaded.url.map { "cassette \($0.path)" } ?? "the loaded rules"
            configuration.log("tonearm: miss \(request.method) \(request.url): \(report.reason)")
            let response = MissReply.response(
                for: report, status: configuration.missStatus, acceptsJSON: MissReply.acceptsJSON(request.headers), source: label)
            return (.response(response), JournalEntry.Source(kind: "miss", detail: report.reason.description),
                    ServerMiss(time: Date(), request: request, report: report))
        case .fetched(let response):
            return (.response(served(response, for: request)), JournalEntry.Source(kind: "network", detail: host?.origin ?? "network"), nil)
        }
    }

    /// The response as sent to the client: URLs rewritten when asked (cassettes keep the upstream's bytes).
    private func served(_ response: Response, for request: Request) -> Response {
        guard configuration.rewritesURLs else { return response }
        return URLRewriter(hosts: configuration.allowedHosts + current.trackHosts, serverURL: baseURL).rewrite(response)
    }

    /// A plain-text answer from the server itself.
    static func plainText(_ status: Int, _ message: String, extra: [HeaderField] = []) -> Response {
        Response(status: status, headers: [HeaderField("Content-Type", "text/plain; charset=utf-8")] + extra, body: message + "\n")
    }
}

extension ServerEngine.Source {
    /// The journal's kind for this source.
    var kind: String {
        switch self {
        case .track: "track"
        case .rule: "rule"
        case .recorded: "recorded"
        case .stub: "stub"
        }
    }
}
