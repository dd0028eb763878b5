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
    /// The folder `POST /__tonearm/cassette` may load and record in.
    let cassetteFolder: FolderConfinement
    /// Who may use the control and admin APIs; its port is set once bound.
    private let controlPlane: Mutex<ControlPlaneGuard>

    init(configuration: ServerConfiguration, group: any EventLoopGroup) throws(ServerError) {
        self.configuration = configuration
        controlPlane = Mutex(ControlPlaneGuard(
            port: configuration.port, bindAddress: configuration.bindAddress,
            token: configuration.adminToken.flatMap { $0.isEmpty ? nil : $0 }))
        cassetteFolder = FolderConfinement(root: configuration.cassetteFolder)
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

    var controlPlaneGuard: ControlPlaneGuard {
        get { controlPlane.withLock { $0 } }
        set { controlPlane.withLock { $0 = newValue } }
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
        await begin(request).value
    }

    /// The answer to one request, as far as the calling thread can take it without waiting: replays and
    /// misses are answered (and journaled) at once; delays, network exchanges and control calls come back
    /// as work for a task.
    func begin(_ request: ServerRequest) -> Staged<ServerReply> {
        let started = ContinuousClock.now
        let time = Date()
        if ControlPlaneGuard.covers(request.target), let refusal = controlPlaneGuard.refusal(for: request) {
            configuration.log("tonearm: refused \(request.method) \(request.target): \(refusal.message)")
            return .now(.response(Self.plainText(refusal.status, refusal.message, extra: refusal.headers)))
        }
        if let admin = WireMockAdmin.route(request.target) {
            return .now(.response(wireMockAdmin(path: admin.path, query: admin.query, request: request)))
        }
        // WireMock-style mappings match the path as sent, ahead of host-in-path routing.
        var mappingMiss: MissReport?
        if !wireMock.isEmpty, request.target.hasPrefix("/"), !request.target.hasPrefix(RequestRoute.controlPrefix + "/") {
            let answer = answerFromMappings(request)
            guard case .missed(let report) = answer else {
                return .later { [self] in await serveMapping(answer, request: request, started: started, time: time) }
            }
            mappingMiss = report
        }
        let loaded = current
        let route = RequestRoute.resolve(
            method: request.method, target: request.target, allowed: configuration.allowedHosts,
            upstream: configuration.upstream, replayOnly: loaded.mode == .never, replayHosts: loaded.trackHosts)
        var journaled = Request(method: request.method, url: request.target, headers: request.headers, body: request.body)
        let outcome: Staged<Outcome>
        switch route {
        case .control(let path, let query):
            // Control calls are not journaled: the journal is about the app's traffic.
            return .later { [self] in .response(await control(path: path, query: query, request: request)) }
        case .refused(let status, let message):
            configuration.log("tonearm: refused \(request.method) \(request.target): \(message)")
            // The message goes in a header too: a response to CONNECT carries no body.
            outcome = .now(Outcome(
                reply: .response(Self.plainText(status, message, extra: [HeaderField("Tonearm-Refused", message)])),
                source: JournalEntry.Source(kind: "refused", detail: message)))
        case .local(let target):
            journaled.url = target
            let local = journaled, mappingMiss = mappingMiss
            outcome = respond(to: local, host: nil, loaded: loaded).map { [self] outcome in
                // Nothing else answers a local path either: the mappings' report says what came closest.
                guard outcome.miss != nil, let mappingMiss else { return outcome }
                return mappingMissReply(mappingMiss, request: local)
            }
        case .upstream(let url, let host):
            journaled.url = url
            journaled.headers = HopByHop.removing(from: request.headers, also: ["host"])
            outcome = respond(to: journaled, host: host, loaded: loaded)
        }
        let entry = journaled
        return outcome.map { [journal] outcome in
            let response: Response? = if case .response(let response) = outcome.reply { response } else { nil }
            journal.append(
                JournalEntry(time: time, request: entry, response: response, source: outcome.source, latency: ContinuousClock.now - started),
                miss: outcome.miss)
            return outcome.reply
        }
    }

    /// A reply, what the journal says answered it, and the miss when nothing did.
    struct Outcome: Sendable {
        var reply: ServerReply
        var source: JournalEntry.Source
        var miss: ServerMiss?
    }

    /// Replays, fetches or reports a miss for a request whose URL is the one it stands for: the cassette's
    /// replay session decides, as it does for URLSession; the server journals and waits out delays.
    private func respond(to request: Request, host: UpstreamHost?, loaded: LoadedCassette) -> Staged<Outcome> {
        guard let host else {
            guard loaded.mode.replays else {
                let message = "no upstream for \(request.url): give the host as the first path component or start the server with --upstream"
                return .now(Outcome(reply: .response(Self.plainText(404, message)), source: JournalEntry.Source(kind: "refused", detail: message)))
            }
            return settle(loaded.session.answerWithoutNetwork(to: request), for: request, host: nil, loaded: loaded)
        }
        switch loaded.session.decide(request) {
        case .answered(let answer):
            return settle(answer, for: request, host: host, loaded: loaded)
        case .fetch(let report):
            return .later { [self] in
                let answer: SessionAnswer
                do {
                    answer = try await loaded.session.fetch(request, missed: report) { [upstreamClient] request in
                        try await upstreamClient.fetch(request)
                    }
                } catch {
                    if Task.isCancelled { return cancelledInFlight }
                    let failure = error as? UpstreamClient.Failure ?? UpstreamClient.Failure(status: 502, message: "\(error)")
                    configuration.log("tonearm: \(request.method) \(request.url): \(failure.message)")
                    return Outcome(
                        reply: .response(Self.plainText(failure.status, failure.message, extra: [HeaderField("Tonearm-Upstream-Error", host.origin)])),
                        source: JournalEntry.Source(kind: "upstream-error", detail: failure.message))
                }
                return await settle(answer, for: request, host: host, loaded: loaded).value
            }
        }
    }

    /// The reply for what the session decided: a replay (after its delay), a miss report, or the
    /// network's response.
    private func settle(_ answer: SessionAnswer, for request: Request, host: UpstreamHost?, loaded: LoadedCassette) -> Staged<Outcome> {
        switch answer {
        case .replayed(let hit):
            let answeredBy = loaded.engine.source(of: hit)
            let outcome = switch hit.track.outcome {
            case .response(let response):
                Outcome(reply: .response(served(response, for: request)), source: JournalEntry.Source(kind: answeredBy.kind, detail: answeredBy.description))
            case .transportError(let error):
                Outcome(reply: .fault(ConnectionFault(error)), source: JournalEntry.Source(kind: "fault", detail: "\(answeredBy.description): \(error)"))
            }
            guard let delay = hit.track.delay else { return .now(outcome) }
            return .later { [self] in
                do { try await Task.sleep(for: delay) } catch { return cancelledInFlight }
                return outcome
            }
        case .missed(let report):
            let label = loaded.url.map { "cassette \($0.path)" } ?? "the loaded rules"
            configuration.log("tonearm: miss \(request.method) \(request.url): \(report.reason)")
            let response = MissReply.response(
                for: report, status: configuration.missStatus, acceptsJSON: MissReply.acceptsJSON(request.headers), source: label)
            return .now(Outcome(
                reply: .response(response), source: JournalEntry.Source(kind: "miss", detail: report.reason.description),
                miss: ServerMiss(time: Date(), request: request, report: report)))
        case .fetched(let response):
            return .now(Outcome(reply: .response(served(response, for: request)), source: JournalEntry.Source(kind: "network", detail: host?.origin ?? "network")))
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
