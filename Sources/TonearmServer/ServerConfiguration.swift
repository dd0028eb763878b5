import Foundation
import Tonearm
import TonearmCassettes
import TonearmReplay

/// Everything a ``TonearmServer`` is started with; `tonearm serve` fills it from its command line.
///
/// What the server answers from and with (the cassette, rules, mode, hosts) is set at the top level;
/// how it runs is grouped: ``network`` (where it listens, on which event loops), ``limits`` (what a
/// client and an upstream may take), ``tls`` (HTTPS and interception), ``journal`` (what it keeps of
/// the exchanges); `installedExtension` is what another module adds to the request path (TonearmWireMock's
/// `wireMock`, WireMock's admin API and stub mappings).
public struct ServerConfiguration: Sendable {
    /// The cassette replayed and recorded; `nil` for a server answering from rules (or the network) only.
    public var cassette: URL?
    /// Rule files answering after the cassette's tracks, in order.
    public var rules: [URL]
    /// What the server does with the network: `.never` replays only (`--mode replay`), `.missing` records
    /// what the cassette cannot answer, `.all` re-records everything, `.passthrough` proxies and journals.
    public var mode: RecordMode
    /// How tracks answer; `nil` uses the strategy stored in the cassette, else repeat.
    public var strategy: StrategyHint?
    /// Which request parts make a key; `nil` uses what the cassette's format implies.
    public var matching: MatchingConfiguration?
    /// Hosts reachable with the host in the first path component (and as forward-proxy targets).
    public var hosts: [UpstreamHost]
    /// The one backend that origin-form requests without a host component go to.
    public var upstream: UpstreamHost?
    /// Whether absolute URLs of the allowed hosts in responses are rewritten to go through the server.
    public var rewritesURLs: Bool
    /// The status a miss is answered with (404 by default: clients treat it as "no such resource" and do
    /// not retry it, unlike a 5xx).
    public var missStatus: Int
    /// What is hidden before recording, and from live requests before matching.
    public var redaction: Redaction
    /// How a replayed track's recorded stream (`Track/pacing`: Server-Sent Events, a chunked body) is
    /// delivered: as recorded (the default), scaled, or at once (`--stream-pacing`).
    public var streamPacing: StreamPacing
    /// How a replayed WebSocket conversation matches the client's messages: each must be the one recorded
    /// next (the default), or each is answered by what was recorded after the same message
    /// (`--websocket-order`). The server's messages are paced as ``streamPacing`` says.
    public var webSocketOrder: WebSocketMessageOrder = .recorded
    /// The secret control (`/__tonearm/`) and admin (`/__admin/`) requests must carry as
    /// `Authorization: Bearer TOKEN` (`--admin-token`); `nil` asks for none. Required to bind an
    /// address other than loopback: anyone who can reach it could otherwise plant answers.
    public var adminToken: String?
    /// The folder `POST /__tonearm/cassette` may load and record cassettes in (`--cassette-dir`);
    /// relative paths are resolved against it and anything leading out of it is refused. `nil` uses the
    /// starting cassette's folder, else the working directory when the server starts.
    public var cassetteDirectory: URL?
    /// A folder for usage records (`--usage-dir`; `TonearmCassettes/UsageRecord`): each cassette the
    /// server switches away from, and the one in force when it stops, leaves a record there of which of
    /// its tracks and rules (and the rule files') answered, for `tonearm coverage`. `nil` writes none.
    public var usageFolder: URL?
    /// Where the server listens and on which event loops it runs.
    public var network: Network
    /// What a client, a connection and an upstream may take: sizes, rates, timeouts.
    public var limits: Limits
    /// HTTPS: a TLS port, `CONNECT` interception, and the upstreams' trust.
    public var tls: TLS
    /// What the server keeps of the exchanges, and where it writes them.
    public var journal: Journal
    /// The server extension built into the server when it starts, if any: TonearmWireMock sets it through
    /// its `wireMock` property. Without one the server answers no reserved path but its own.
    package var installedExtension: (any ServerExtensionInstaller)?
    /// The inspector page (docs/server.md, "Inspector").
    public var inspector: Inspector
    /// Receives one line per miss and per refused request (standard error for `tonearm serve`).
    public var log: @Sendable (String) -> Void

    /// A configuration with the defaults: loopback, port 0, replay only, no upstream.
    public init(
        cassette: URL? = nil, rules: [URL] = [], mode: RecordMode = .never, strategy: StrategyHint? = nil,
        matching: MatchingConfiguration? = nil, hosts: [UpstreamHost] = [], upstream: UpstreamHost? = nil,
        rewritesURLs: Bool = false, missStatus: Int = 404, redaction: Redaction = .default, streamPacing: StreamPacing = .recorded,
        adminToken: String? = nil, cassetteDirectory: URL? = nil, usageFolder: URL? = nil, network: Network = Network(), limits: Limits = Limits(), tls: TLS = TLS(),
        journal: Journal = Journal(), inspector: Inspector = Inspector(),
        log: @escaping @Sendable (String) -> Void = ServerConfiguration.standardError
    ) {
        self.cassette = cassette
        self.rules = rules
        self.mode = mode
        self.strategy = strategy
        self.matching = matching
        self.hosts = hosts
        self.upstream = upstream
        self.rewritesURLs = rewritesURLs
        self.missStatus = missStatus
        self.redaction = redaction
        self.streamPacing = streamPacing
        self.adminToken = adminToken
        self.cassetteDirectory = cassetteDirectory
        self.usageFolder = usageFolder
        self.network = network
        self.limits = limits
        self.tls = tls
        self.journal = journal
        self.inspector = inspector
        self.log = log
    }

    /// Where the server listens and on which event loops it runs.
    public struct Network: Sendable {
        /// The address to listen on; loopback unless you mean to expose recordings to the network.
        public var bindAddress: String
        /// The port; 0 (the default) lets the system choose a free one, reported in ``TonearmServer/baseURL``.
        public var port: Int
        /// The event loops the server runs on: NIO's singleton group unless told otherwise; a process
        /// running many servers at once gives each its own (``ServerEventLoops/dedicated(threads:)``).
        public var eventLoops: ServerEventLoops
        /// Upstreams connected to at another address than their names resolve to (`--connect-to`), the
        /// URLs, `Host`, TLS server name and certificate check staying the upstream's. A host name given
        /// here is reached at its address on every port; two entries for one host must agree on it.
        public var upstreamConnections: [UpstreamConnection]

        /// Loopback, a port the system chooses, NIO's shared event loops, upstreams where their names resolve.
        public init(
            bindAddress: String = "127.0.0.1", port: Int = 0, eventLoops: ServerEventLoops = .singleton,
            upstreamConnections: [UpstreamConnection] = []
        ) {
            self.bindAddress = bindAddress
            self.port = port
            self.eventLoops = eventLoops
            self.upstreamConnections = upstreamConnections
        }
    }

    /// What a client, a connection and an upstream may take.
    public struct Limits: Sendable {
        /// The largest request body accepted, in bytes; larger bodies are answered 413.
        public var maximumBodySize: Int
        /// How long a connection may stay silent (between requests or mid-request) before it is closed.
        public var idleTimeout: Duration
        /// How long a whole request head may take to arrive (10 s by default, as nginx's
        /// `client_header_timeout`), counted from the connection's accept for its first request and from
        /// the first byte of each later one; a head still incomplete then is answered 408 and the
        /// connection closed. Unlike ``idleTimeout`` it does not restart with each byte, so a client
        /// dripping its head cannot hold a connection.
        public var headerTimeout: Duration
        /// The slowest a request body may arrive, in bytes per second, averaged over each
        /// ``bodyRateWindow`` (1,024 by default); a body below it is answered 408 and the connection
        /// closed. 0 checks no rate (the ``idleTimeout`` still applies).
        public var minimumBodyBytesPerSecond: Int
        /// The window ``minimumBodyBytesPerSecond`` is measured over (10 s by default): a body must bring
        /// rate × window bytes, or end, within each.
        public var bodyRateWindow: Duration
        /// The most client connections open at once. When a new client arrives with this many open, the
        /// connection idle longest between requests is closed to make room, else the one waiting longest
        /// for its request head (answered 503); connections whose request is being read or answered are
        /// never shed, and when all are, the new connection is closed. The default is
        /// ``ServerConfiguration/defaultMaximumConnections``.
        public var maximumConnections: Int
        /// How long a whole upstream exchange may take (connecting, the response head and every byte of
        /// its body) before it is cancelled and answered 504, nothing recorded.
        public var upstreamTimeout: Duration
        /// How long ``TonearmServer/stop()`` lets in-flight exchanges finish before it cancels them (their
        /// clients get a 503 with `Connection: close`) and saves what was recorded.
        public var shutdownTimeout: Duration

        /// The defaults: 32 MiB bodies, 60 s idle, 10 s heads, 1 KiB/s bodies over 10 s windows,
        /// ``ServerConfiguration/defaultMaximumConnections``, 60 s upstream exchanges, 5 s to stop.
        public init(
            maximumBodySize: Int = 32 * 1024 * 1024, idleTimeout: Duration = .seconds(60), headerTimeout: Duration = .seconds(10),
            minimumBodyBytesPerSecond: Int = 1024, bodyRateWindow: Duration = .seconds(10),
            maximumConnections: Int = ServerConfiguration.defaultMaximumConnections, upstreamTimeout: Duration = .seconds(60),
            shutdownTimeout: Duration = .seconds(5)
        ) {
            self.maximumBodySize = maximumBodySize
            self.idleTimeout = idleTimeout
            self.headerTimeout = headerTimeout
            self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
            self.bodyRateWindow = bodyRateWindow
            self.maximumConnections = maximumConnections
            self.upstreamTimeout = upstreamTimeout
            self.shutdownTimeout = shutdownTimeout
        }
    }

    /// HTTPS: a TLS port, `CONNECT` interception, and the upstreams' trust.
    public struct TLS: Sendable {
        /// A second port serving the same routes over TLS (`--https-port`); 0 lets the system choose,
        /// `nil` (the default) serves plain HTTP only. It presents ``certificateFile`` when given, else a
        /// leaf for `localhost`, `127.0.0.1` and `::1` signed by ``certificateAuthority``.
        public var httpsPort: Int?
        /// The CA that signs the certificates the server presents (`tonearm serve --ca-dir`, made with
        /// ``LocalCertificateAuthority/loadOrCreate(in:)``); clients trust its certificate.
        public var certificateAuthority: LocalCertificateAuthority?
        /// Whether `CONNECT` to an allowed host (in replay mode, a host of the cassette) is intercepted:
        /// answered 200, TLS terminated with a leaf for the host signed by ``certificateAuthority``, and
        /// the requests inside sent through the same path as any other (`--intercept-https`). Otherwise
        /// `CONNECT` is answered 405. Hosts not allowed are refused either way: the server never tunnels
        /// blindly.
        public var interceptsHTTPS: Bool
        /// The certificate chain (PEM) the HTTPS port presents instead of a CA-signed one (`--tls-cert`).
        public var certificateFile: URL?
        /// The private key (PEM) of ``certificateFile`` (`--tls-key`).
        public var keyFile: URL?
        /// CA certificates (PEM) trusted for upstreams besides the system's trust store (`--upstream-ca`),
        /// for test upstreams with their own certificates.
        public var upstreamCertificateAuthorities: [URL]

        /// Plain HTTP only, `CONNECT` refused, upstreams trusted by the system's store.
        public init(
            httpsPort: Int? = nil, certificateAuthority: LocalCertificateAuthority? = nil, interceptsHTTPS: Bool = false,
            certificateFile: URL? = nil, keyFile: URL? = nil, upstreamCertificateAuthorities: [URL] = []
        ) {
            self.httpsPort = httpsPort
            self.certificateAuthority = certificateAuthority
            self.interceptsHTTPS = interceptsHTTPS
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.upstreamCertificateAuthorities = upstreamCertificateAuthorities
        }
    }

    /// What the server keeps of the exchanges, and where it writes them.
    public struct Journal: Sendable {
        /// Where the journal is written as HAR when the server stops.
        public var file: URL?
        /// The most exchanges the journal keeps; older ones are dropped first.
        public var limit: Int
        /// The most bytes the journal's entries may hold (URLs, headers, bodies cut to 64 KiB, miss
        /// reports), 64 MiB by default; the oldest are dropped first (`--journal-max-bytes`).
        public var maximumBytes: Int

        /// 10,000 exchanges or 64 MiB, written nowhere.
        public init(file: URL? = nil, limit: Int = 10_000, maximumBytes: Int = 64 * 1024 * 1024) {
            self.file = file
            self.limit = limit
            self.maximumBytes = maximumBytes
        }
    }

    /// The inspector: a page on the server's own port showing every exchange live, each miss with its
    /// nearest recordings, and actions that fix a miss in the cassette file (docs/server.md, "Inspector").
    /// Its address carries a random token made when the server starts (``TonearmServer/inspectorURL``).
    public struct Inspector: Sendable {
        /// Whether the page is served: `nil` serves it on a loopback address and not beyond (a server
        /// reachable from other machines shows its recordings only when asked to, `--inspector`).
        public var isEnabled: Bool?

        /// The inspector as the bind address decides (`nil`), or on or off.
        public init(isEnabled: Bool? = nil) {
            self.isEnabled = isEnabled
        }
    }

    /// Writes a line to standard error, where `tonearm serve` reports misses. Lines are written on a
    /// queue of their own, so a reader that is slow, never reads or went away never holds up a request.
    public static let standardError: @Sendable (String) -> Void = { line in
        StandardErrorLog.shared.write(line)
    }

    /// Waits until the lines ``standardError`` queued so far are written, or `timeout` passes: for a
    /// last line before the process exits.
    package static func flushStandardError(timeout: Duration) {
        StandardErrorLog.shared.flush(timeout: timeout)
    }

    /// The folder control API cassettes are confined to: ``cassetteDirectory``, else the starting
    /// cassette's folder, else the working directory (read once, when the server starts).
    var cassetteFolder: URL {
        cassetteDirectory ?? cassette?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    /// Whether the bind address is a loopback one (127.0.0.0/8, ::1, localhost): only this machine connects.
    var bindsLoopback: Bool {
        let address = network.bindAddress.lowercased()
        return address == "localhost" || address == "::1" || address == "[::1]" || address.hasPrefix("127.")
    }

    /// Whether the inspector is served: as asked, else on loopback only.
    var servesInspector: Bool { inspector.isEnabled ?? bindsLoopback }

    /// Every host requests may be sent to: the `--host` list and the `--upstream`.
    var allowedHosts: [UpstreamHost] {
        hosts + (upstream.map { [$0] } ?? [])
    }
}
