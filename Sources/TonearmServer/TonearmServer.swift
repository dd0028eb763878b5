import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Tonearm
import TonearmCassettes
import TonearmReplay

/// A local HTTP server that records, replays and stubs for clients in any process or language.
///
/// Start one in the test runner and point the app's base URLs at it, with the real host as the first
/// path component:
/// ```swift
/// let server = try await TonearmServer.start(ServerConfiguration(
///     cassette: cassetteURL, mode: .missing, hosts: [UpstreamHost("api.example.com")!]))
/// app.launchEnvironment["API_BASE_URL"] = server.baseURL(for: "api.example.com").absoluteString
/// // … run the test …
/// try await server.stop()   // saves the recording, writes the journal
/// ```
/// It binds port 0 unless told otherwise, so parallel runs each get their own port without probing.
public final class TonearmServer: Sendable {
    /// The server scoped to the running test by TonearmTesting's `.server` trait and `withTonearmServer`.
    @TaskLocal public static var current: TonearmServer?

    /// `http://127.0.0.1:PORT`, the server's address once bound.
    public let baseURL: URL
    /// The port the server listens on.
    public let port: Int
    /// `https://127.0.0.1:PORT`, the HTTPS port's address, when ``ServerConfiguration/TLS/httpsPort`` asked for one.
    public let httpsBaseURL: URL?
    /// The HTTPS port, when ``ServerConfiguration/TLS/httpsPort`` asked for one.
    public let httpsPort: Int?
    /// What the server was started with.
    public var configuration: ServerConfiguration { core.configuration }

    let core: ServerCore
    /// The HTTP listener, then the HTTPS one when there is one.
    private let listeners: [any Channel]
    private let connections: ConnectionRegistry
    /// The event loops the server made for itself (``ServerEventLoops/dedicated(threads:)``), shut down
    /// when it stops.
    private let ownedGroup: (any EventLoopGroup)?
    /// The stop under way or done: one, however many callers (``stop()``, `POST /__admin/shutdown`, a
    /// signal) ask for it, each awaiting its result.
    private let stopping = Mutex<Task<Result<Void, ServerError>, Never>?>(nil)

    private init(
        core: ServerCore, ownedGroup: (any EventLoopGroup)?, listeners: [any Channel], connections: ConnectionRegistry, baseURL: URL,
        port: Int, httpsBaseURL: URL?, httpsPort: Int?
    ) {
        self.core = core
        self.ownedGroup = ownedGroup
        self.listeners = listeners
        self.connections = connections
        self.baseURL = baseURL
        self.port = port
        self.httpsBaseURL = httpsBaseURL
        self.httpsPort = httpsPort
    }

    /// Loads the cassette and rules, binds, and returns once the server accepts connections.
    ///
    /// - Throws: ``ServerError`` naming the file and position of a cassette that does not load, or the
    ///   address that could not be bound.
    public static func start(_ configuration: ServerConfiguration) async throws(ServerError) -> TonearmServer {
        try checkExposure(configuration)
        let (group, ownsGroup) = configuration.network.eventLoops.makeGroup()
        let core: ServerCore
        do {
            core = try ServerCore(configuration: configuration, group: group)
        } catch {
            if ownsGroup { try? await group.shutdownGracefully() }
            throw error
        }
        let connections = ConnectionRegistry(maximumConnections: configuration.limits.maximumConnections)
        let pipeline = HTTPPipeline(
            core: core, connections: connections, idleTimeout: .nanoseconds(Self.nanoseconds(configuration.limits.idleTimeout)))
        let listener: any Channel
        do {
            listener = try await bootstrap(group: group, connections: connections)
                .childChannelInitializer { channel in pipeline.configureAccepted(channel, tls: nil) }
                .bind(host: configuration.network.bindAddress, port: configuration.network.port).get()
        } catch {
            await core.upstreamClient.shutdown()
            if ownsGroup { try? await group.shutdownGracefully() }
            throw .bind(address: configuration.network.bindAddress, port: configuration.network.port, reason: "\(error)")
        }
        var httpsListener: (any Channel)?
        if let httpsPort = configuration.tls.httpsPort, let context = core.tls.listener {
            do {
                httpsListener = try await bootstrap(group: group, connections: connections)
                    .childChannelInitializer { channel in pipeline.configureAccepted(channel, tls: context) }
                    .bind(host: configuration.network.bindAddress, port: httpsPort).get()
            } catch {
                try? await listener.close()
                await core.upstreamClient.shutdown()
                if ownsGroup { try? await group.shutdownGracefully() }
                throw .bind(address: configuration.network.bindAddress, port: httpsPort, reason: "\(error)")
            }
        }
        let port = listener.localAddress?.port ?? configuration.network.port
        let host = configuration.network.bindAddress.contains(":") ? "[\(configuration.network.bindAddress)]" : configuration.network.bindAddress
        let base = "http://\(host):\(port)"
        core.baseURL = base
        core.address.port = port
        let httpsPort = httpsListener.flatMap { $0.localAddress?.port }
        core.address.httpsPort = httpsPort
        let server = TonearmServer(
            core: core, ownedGroup: ownsGroup ? group : nil, listeners: [listener] + (httpsListener.map { [$0] } ?? []), connections: connections,
            baseURL: URL(string: base) ?? URL(fileURLWithPath: "/"), port: port,
            httpsBaseURL: httpsPort.flatMap { URL(string: "https://\(host):\($0)") }, httpsPort: httpsPort)
        // `POST /__admin/shutdown` stops the server, as WireMock's does. The wait ends with the stop
        // whatever its cause (``stop()`` releases it), and holds the server only weakly meanwhile.
        Task { [weak server, shutdown = core.shutdown] in
            guard await shutdown.wait() != nil else { return }
            try? await server?.stop()
        }
        return server
    }

    /// Returns once a client asked the server to stop (`POST /__admin/shutdown`, through the admin API
    /// and its token), answering who asked; or, answering `nil`, once the server stops otherwise. The
    /// server stops by itself after such a request (as for ``stop()``); `tonearm serve` then exits as it
    /// does for SIGTERM.
    public func shutdownRequested() async -> String? {
        await core.shutdown.wait()
    }

    /// The listener's options, the same for the HTTP and the HTTPS port.
    private static func bootstrap(group: any EventLoopGroup, connections: ConnectionRegistry) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            // Accepts per wake-up (NIO's default is 4): a burst of connections (3,000 slowloris
            // clients) drains from the backlog in fewer loop turns, so a fresh client queued behind
            // it is accepted sooner.
            .serverChannelOption(ChannelOptions.maxMessagesPerRead, value: 64)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: Self.writeBufferWaterMark)
            .serverChannelInitializer { listener in
                listener.eventLoop.makeCompletedFuture {
                    try listener.pipeline.syncOperations.addHandler(ConnectionAdmission(registry: connections))
                }
            }
    }

    /// Refuses to listen beyond this machine without an admin token: anyone who can reach the address
    /// could otherwise plant answers and read what was recorded.
    private static func checkExposure(_ configuration: ServerConfiguration) throws(ServerError) {
        guard !configuration.bindsLoopback, configuration.adminToken?.isEmpty ?? true else { return }
        throw .invalid(
            what: "bind address", value: configuration.network.bindAddress,
            expected: """
                a loopback address (127.0.0.1, ::1, localhost), or an admin token (--admin-token, \
                ServerConfiguration.adminToken): anyone who can reach \(configuration.network.bindAddress) could otherwise \
                plant answers and read recordings through the control and admin APIs
                """)
    }

    /// The inspector page's address, token included (`http://127.0.0.1:PORT/__tonearm/inspector/<token>/`):
    /// every exchange live, each miss with its nearest recordings and a one-click fix (docs/server.md,
    /// "Inspector"). `nil` when the inspector is off (``ServerConfiguration/Inspector``).
    public var inspectorURL: URL? {
        guard core.inspector.isEnabled else { return nil }
        return URL(string: core.inspector.url(base: baseURL.absoluteString))
    }

    /// The URL standing for `https://<host>` (or the scheme given with `--host`): `baseURL/<host>`.
    /// Append the path the app would have used: `baseURL(for: "api.example.com")/v1/users`.
    public func baseURL(for host: String) -> URL {
        let authority = UpstreamHost(host)?.authority ?? host
        return baseURL.appendingPathComponent(authority)
    }

    /// The CA certificate file clients must trust for the HTTPS port and intercepted tunnels, when the
    /// server's ``ServerConfiguration/TLS/certificateAuthority`` is kept in a folder.
    public var certificateAuthorityFile: URL? { configuration.tls.certificateAuthority?.certificateFile }

    /// The environment that sends a child process's traffic through this server: `HTTP_PROXY` and
    /// `HTTPS_PROXY` (upper and lower case), and, with a CA file, the variables curl, Python (`requests`,
    /// `ssl`) and Node read their extra trusted certificates from. HTTPS goes through only when the
    /// server intercepts (``ServerConfiguration/TLS/interceptsHTTPS``).
    public var proxyEnvironment: [String: String] {
        let proxy = baseURL.absoluteString
        var environment = ["HTTP_PROXY": proxy, "http_proxy": proxy, "HTTPS_PROXY": proxy, "https_proxy": proxy]
        if let file = certificateAuthorityFile?.path {
            for name in ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS"] { environment[name] = file }
        }
        return environment
    }

    /// Saves the current cassette and loads another, so one server serves a whole suite, a cassette per
    /// test. `mode` and `strategy` default to the current ones; `nil` for `cassette` serves rules only.
    public func load(cassette: URL?, mode: RecordMode? = nil, strategy: StrategyHint? = nil) throws(ServerError) {
        try core.cassettes.load(cassette, mode: mode, strategy: strategy)
    }

    /// Adds stubs, written in the rule-file schema (see docs/cassette-format.md), answering after the
    /// cassette's tracks and rules until the cassette is switched.
    public func addStubs(_ document: String, syntax: RuleFileFormat.Syntax = .json) throws(ServerError) {
        try core.cassettes.addStubs(Array(document.utf8), syntax: syntax, file: "stubs")
    }

    /// Rewinds the strategies: every track playable again, strict order at its start.
    public func reset() {
        core.cassettes.reset()
    }

    /// Writes what was recorded so far, atomically.
    public func save() throws(ServerError) {
        try core.cassettes.save()
    }

    /// The exchanges handled so far (the last ``ServerConfiguration/Journal/limit``), oldest first.
    public var journal: [JournalEntry] { core.journal.entries }

    /// The journal as a HAR 1.2 log, redacted with ``ServerConfiguration/redaction`` as recordings are.
    public func journalHAR() throws(ServerError) -> [UInt8] {
        do throws(CassetteError) {
            return try core.journal.har(redacting: core.configuration.redaction)
        } catch {
            throw .cassette(error)
        }
    }

    /// The reports of the requests nothing answered, oldest first.
    public var misses: [MissReport] { core.journal.misses.map(\.report) }

    /// Stops accepting, lets in-flight exchanges finish (idle connections are closed), saves the
    /// cassette atomically, leaves its usage record (``ServerConfiguration/usageFolder``) and writes the
    /// journal file. Calling it again returns the first result.
    ///
    /// Exchanges still in flight when ``ServerConfiguration/Limits/shutdownTimeout`` has passed (a hung
    /// upstream, a long replayed delay) are cancelled: their clients get a 503 with `Connection: close`,
    /// nothing of them is recorded, and what completed before is saved. It returns within the shutdown
    /// timeout plus about two seconds.
    public func stop() async throws(ServerError) {
        let task = stopping.withLock { task in
            if let task { return task }
            let started = Task { await self.performStop() }
            task = started
            return started
        }
        try await task.value.get()
    }

    /// The stop itself, run once.
    private func performStop() async -> Result<Void, ServerError> {
        let open = connections.stop()
        for listener in listeners { try? await listener.close() }
        // Idle connections close now; busy ones once their exchange is answered or cancelled.
        await ShutdownDeadline.closeAll(open, within: core.configuration.limits.shutdownTimeout)
        var result: Result<Void, ServerError> = .success(())
        do throws(ServerError) {
            try core.cassettes.save()
        } catch {
            result = .failure(error)
        }
        do throws(ServerError) {
            try core.cassettes.writeUsageRecord()
        } catch {
            if case .success = result { result = .failure(error) }
        }
        if let journalFile = core.configuration.journal.file {
            do throws(CassetteError) {
                try core.journal.writeHAR(to: journalFile, redacting: core.configuration.redaction)
            } catch {
                if case .success = result { result = .failure(.cassette(error)) }
            }
        }
        await core.upstreamClient.shutdown()
        if let ownedGroup { try? await ownedGroup.shutdownGracefully() }
        StandardErrorLog.shared.flush(timeout: .seconds(1))
        core.shutdown.release()
        return result
    }

    /// A connection stops reading requests once this much of its answers is written but not yet taken
    /// by the socket (high), and resumes below the low mark. One answer may pass the high mark (it is
    /// written whole), so a client that never reads holds at most 256 KiB plus one answer.
    static let writeBufferWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 64 * 1024, high: 256 * 1024)

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        // Saturating: a cassette's offset or delay can be any number of milliseconds, and a wrapped value would be in the past.
        let (whole, overflow) = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carry) = whole.addingReportingOverflow(parts.attoseconds / 1_000_000_000)
        if overflow || carry { return parts.seconds < 0 ? .min : .max }
        return total
    }
}
