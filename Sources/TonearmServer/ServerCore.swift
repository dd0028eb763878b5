import Foundation
import NIOCore
import NIOPosix
import TonearmCassettes
import Tonearm

/// The state shared by every connection (the cassette in force, the installed extension, the journal,
/// the upstream client) and the request path: a ``ResponderChain`` whose answer the ``AnswerFinisher``
/// writes and journals.
package final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let journal: Journal
    let upstreamClient: UpstreamClient
    /// What another module adds to the request path (``ServerConfiguration/installedExtension``):
    /// WireMock's admin API and stub mappings for `tonearm serve`.
    package let installedExtension: (any ServerExtension)?
    /// The installed extension's reserved prefix, read once rather than through it on every request.
    private let extensionPrefix: String?
    /// Loading, stubbing, rewinding and saving the cassette, for the Swift API and the control API.
    let cassettes: CassetteOperations
    /// `http://127.0.0.1:PORT`, known once bound; the rewriter and messages use it.
    let address = ServerAddress()
    /// The request path, in order.
    let chain: ResponderChain
    /// The HTTPS listener's context, the per-host contexts of intercepted tunnels, the upstreams' trust.
    let tls: ServerTLS
    private let finisher: AnswerFinisher
    /// The inspector page and its API (``Inspector``).
    let inspector: Inspector
    /// The timers paced bodies wait on, one wheel per event loop of the server's group.
    let pacedWakeups: PacedWakeups
    /// A client's request that the server stop (WireMock's `POST /__admin/shutdown`), which the server waits for.
    let shutdown = ShutdownRequest()

    init(configuration: ServerConfiguration, group: any EventLoopGroup) throws(ServerError) {
        self.configuration = configuration
        pacedWakeups = PacedWakeups(group: group)
        journal = Journal(limit: configuration.journal.limit, maximumBytes: configuration.journal.maximumBytes)
        // The cassette loads first: a broken one fails the start before any client is created.
        cassettes = try CassetteOperations(configuration: configuration, journal: journal)
        let installed = try configuration.installedExtension?.makeExtension(in: ServerExtensionContext(
            configuration: configuration, journal: journal, address: address, shutdown: shutdown))
        installedExtension = installed
        extensionPrefix = configuration.installedExtension?.reservedPrefix
        tls = try ServerTLS(configuration: configuration)
        upstreamClient = UpstreamClient(
            group: group, timeout: configuration.limits.upstreamTimeout, maximumBodySize: configuration.limits.maximumBodySize,
            tls: tls.upstream, connections: try UpstreamClient.Connections(configuration.network.upstreamConnections))
        let converter = SessionAnswerConverter(configuration: configuration, address: address)
        let controlPlane = ControlPlaneGuard(
            port: configuration.network.port, bindAddress: configuration.network.bindAddress,
            token: configuration.adminToken.flatMap { $0.isEmpty ? nil : $0 })
        inspector = Inspector(
            token: InspectorToken.random(), isEnabled: configuration.servesInspector, journal: journal, cassettes: cassettes,
            installedExtension: installed, upstreamClient: upstreamClient, address: address)
        // The installed extension's stages, when there is one, in their places.
        let stages: [(any ResponderStage)?] = [
            // Before the APIs and the inspector, so nothing reaches them that the guard refuses.
            ControlPlaneGuardStage(configured: controlPlane, address: address),
            // Before the control API, whose prefix it shares.
            InspectorStage(inspector: inspector),
            installed?.apiStage,
            ControlStage(control: ControlAPI(
                cassettes: cassettes, cassetteFolder: FolderConfinement(root: configuration.cassetteFolder), journal: journal,
                address: address)),
            // Before the mappings: a CONNECT target is an authority, not a path any stub could match.
            TunnelStage(),
            // WireMock's stub mappings answer ahead of the cassette.
            installed?.trafficStage(upstreamClient: upstreamClient),
            RefusalStage(),
            CassetteStage(converter: converter, client: upstreamClient),
        ]
        chain = ResponderChain(stages: stages.compactMap { $0 })
        finisher = AnswerFinisher(
            journal: journal, missStatus: configuration.missStatus, shutdownTimeout: configuration.limits.shutdownTimeout,
            log: configuration.log, timer: LoopTimer(group: group))
    }

    var baseURL: String {
        get { address.url }
        set { address.url = newValue }
    }

    /// The answer to one request, as far as the calling thread can take it without waiting: replays and
    /// misses are answered (and journaled) at once; delays, network exchanges and control calls come back
    /// as work for a task.
    ///
    /// A request whose matching could be long (rules whose patterns are not all on their load-time
    /// tables, times a long request) is matched on NIO's thread pool instead, so it never holds up the
    /// other connections of the event loop that read it.
    func begin(_ request: ServerRequest) -> Staged<OutgoingResponse> {
        let cassette = cassettes.current
        guard matchingBound(request, cassette: cassette) <= Self.maximumVisitsOnEventLoop else {
            return .later { [self] in
                await Staged.onThreadPool { self.answer(request, cassette: cassette) }.value.value
            }
        }
        return answer(request, cassette: cassette)
    }

    /// Matching work (instruction visits) above which a request leaves the event loop: about 1–2 ms at the
    /// 12–20 ns a visit takes here (docs/benchmarks-history.md, "Worst cases: patterns whose table
    /// fills"), against a replay's tens of microseconds; below it, the thread hop would cost more than it
    /// saves.
    static let maximumVisitsOnEventLoop = 100_000

    /// A bound on the instruction visits matching `request` can cost off the patterns' tables; 0 for
    /// every request when all rules' tables were complete at load.
    func matchingBound(_ request: ServerRequest, cassette: LoadedCassette) -> Int {
        var perScalar = cassette.engine.engine.worstPatternVisitsPerScalar
        if let installedExtension { perScalar += installedExtension.worstPatternVisitsPerScalar }
        guard perScalar > 0 else { return 0 }
        var bytes = request.target.utf8.count + request.body.count
        for header in request.headers { bytes += header.name.utf8.count + header.value.utf8.count }
        return bytes.multipliedReportingOverflow(by: perScalar).overflow ? .max : bytes * perScalar
    }

    private func answer(_ request: ServerRequest, cassette: LoadedCassette) -> Staged<OutgoingResponse> {
        let pending = ChainRequest(request, cassette: cassette, configuration: configuration, extensionPrefix: extensionPrefix)
        let answer = chain.answer(pending)
        return finisher.reply(answer, for: pending)
    }

    /// A plain-text answer from the server itself.
    package static func plainText(_ status: Int, _ message: String, extra: [HeaderField] = []) -> Response {
        Response(status: status, headers: [HeaderField("Content-Type", "text/plain; charset=utf-8")] + extra, body: message + "\n")
    }
}
