import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmWireMock
import TonearmReplay
import TonearmCommands

/// `tonearm serve`: a local record/replay/stub server for clients in any process or language.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a cassette over HTTP on 127.0.0.1: replay, record what is missing, or proxy and journal.",
        discussion: """
            Point the app's base URL at the server with the real host as the first path component: \
            http://127.0.0.1:PORT/api.example.com/v1/users stands for https://api.example.com/v1/users. \
            Hosts the server may reach are given with --host (https unless a scheme is given) or --upstream \
            (one base URL for every request without a host component). Plain-http clients may also use the \
            server as a forward proxy (HTTP_PROXY); with --intercept-https, HTTPS clients may too (HTTPS_PROXY): \
            CONNECT to an allowed host (in replay mode, a host of the cassette) is terminated with a certificate \
            signed by the local CA (tonearm ca), and the requests inside take the same path. Any other host is \
            refused. --https-port serves the same routes over TLS.

            When listening, the first line on standard output is one JSON object, \
            {"event":"listening","url":"http://127.0.0.1:PORT","port":PORT,...}, with "httpsUrl", "httpsPort" \
            and "caCertificate" when TLS is on, and "inspectorUrl" (the inspector page, its token in the address; \
            also on standard error) unless it is off; --ready-file receives the same line.

            A miss is answered 404 (--miss-status) with the miss report as the body (JSON for \
            Accept: application/json), a Tonearm-Miss header naming the reason, and a line on standard error.

            The control API is under /__tonearm/ (health, cassette, stubs, reset, save, journal, journal.har, \
            misses); WireMock's admin API is under /__admin/ (mappings, requests, near misses, settings), so \
            WireMock clients work unchanged; see docs/server.md. Both answer only requests addressed to this \
            server's own loopback name and port, not from other web pages, with JSON bodies for state changes, \
            and with --admin-token only requests carrying it.

            SIGINT or SIGTERM: stop accepting, let in-flight exchanges finish for up to --shutdown-timeout \
            seconds (then cancel them: their clients get a 503 with Connection: close), save the cassette \
            atomically, write the journal, exit 0. A second signal while stopping exits at once with status \
            130, saving nothing more. POST /__admin/shutdown (through the admin API and its token) stops the \
            server the same way, after answering 200, as WireMock's does.
            """
    )

    @Option(help: "The cassette to replay and record into (any format Tonearm reads; records into .json or .har).")
    var cassette: String?
    @Option(help: "A rule file answering after the cassette's tracks (repeatable).")
    var rules: [String] = []
    @Option(help: "replay (never reach the network), missing (record what the cassette lacks), all (re-record everything), passthrough (proxy and journal only).")
    var mode = "replay"
    @Option(help: "How tracks answer: repeat, fifo, uniquePlay, strictOrder (default: the cassette's, else repeat).")
    var strategy: String?
    @Option(help: "A host the server may reach, as the first path component: api.example.com (https) or http://127.0.0.1:9000 (repeatable).")
    var host: [String] = []
    @Option(help: "The single upstream base URL for requests without a host component, e.g. https://api.example.com.")
    var upstream: String?
    @Option(
        name: .customLong("connect-to"),
        help: "HOST:PORT:ADDRESS:PORT: reach the upstream HOST:PORT at ADDRESS:PORT instead of where HOST resolves, as curl's --connect-to; URLs, Host, the TLS server name and the certificate check stay HOST's (repeatable).")
    var connectTo: [String] = []
    @Option(
        name: .customLong("match"),
        help: "Attributes in the key, comma-separated: method,url,path,query,body,header:NAME (default: the cassette's, else method,url,query,body).")
    var match: String?
    @Option(name: .customLong("ignore-query"), help: "A query parameter to leave out of the key (repeatable).")
    var ignoreQuery: [String] = []
    @Option(
        name: .customLong("redact-header"),
        help: "A header whose values are replaced by <redacted> before anything is recorded, besides Authorization, Cookie, Set-Cookie and Proxy-Authorization (repeatable).")
    var redactHeader: [String] = []
    @Option(
        name: .customLong("redact-query"),
        help: "A query parameter whose values are replaced by <redacted> before anything is recorded, in live requests as in recordings (repeatable).")
    var redactQuery: [String] = []
    @Option(help: "The port; 0 lets the system choose a free one (reported on standard output).")
    var port = 0
    @Option(help: "The address to listen on.")
    var bind = "127.0.0.1"
    @Option(name: .customLong("ready-file"), help: "A file to write the listening JSON line to once the server accepts connections.")
    var readyFile: String?
    @Option(help: "A HAR file the journal of every exchange is written to on shutdown.")
    var journal: String?
    @Option(name: .customLong("usage-dir"), help: "A folder to leave a usage record in for each cassette served (on switching away and on shutdown): which tracks and rules answered, for tonearm coverage (default: $TONEARM_USAGE_DIR).")
    var usageDir: String?
    @Flag(name: .customLong("rewrite-urls"), help: "Rewrite absolute URLs of the allowed hosts in responses to go through the server.")
    var rewriteURLs = false
    @Option(name: .customLong("journal-limit"), help: "The most exchanges the journal keeps.")
    var journalLimit = 10_000
    @Option(name: .customLong("journal-max-bytes"), help: "The most bytes the journal holds (bodies are kept cut to 64 KiB, a proxied exchange's to an eighth of this); the oldest entries are dropped first.")
    var journalMaxBytes = 64 * 1024 * 1024
    @Option(name: .customLong("miss-status"), help: "The status a miss is answered with.")
    var missStatus = 404
    @Option(name: .customLong("stream-pacing"), help: "How a recorded stream (Server-Sent Events, a chunked body) is replayed: recorded (its parts when they came), off (at once), or a factor such as 0.5 (twice as fast) (default: $TONEARM_STREAM_PACING, else recorded).")
    var streamPacing: String?

    @Option(name: .customLong("websocket-order"), help: "How a replayed WebSocket matches the client's messages: recorded (each must be the one recorded next) or keyed (each is answered by what was recorded after the same message, in any order) (default: $TONEARM_WEBSOCKET_ORDER, else recorded).")
    var webSocketOrder: String?
    @Option(name: .customLong("header-timeout"), help: "Seconds a request head may take to arrive (from accept, or from its first byte); slower heads get 408.")
    var headerTimeout = 10.0
    @Option(name: .customLong("min-body-rate"), help: "The slowest a request body may arrive, in bytes per second over each 10 s window; slower bodies get 408 (0: no minimum).")
    var minBodyRate = 1024
    @Option(name: .customLong("max-connections"), help: "The most client connections open at once; when full, idle ones are closed to make room (default: half the descriptor limit, at most 16384).")
    var maxConnections: Int?
    @Option(name: .customLong("root-dir"), help: "A WireMock root directory: stub mappings from DIR/mappings, body files from DIR/__files (see docs/server.md).")
    var rootDir: String?
    @Option(
        name: [.customLong("wiremock-version"), .customLong("wiremock-api")],
        help: "The WireMock version Tonearm behaves as where 2.35 and 3.x differ: 3 (default: 3.x's admin routes, GET /__admin/files as names, templates not HTML-escaped, mappings naming response-template templated) or 2 (as the 2.35.1 jar: its routes, absolute paths, escaped templates, no templating without a templating option). --wiremock-api is the same option.")
    var wireMockVersion = "3"
    @Flag(name: .customLong("global-response-templating"), help: "Render every WireMock mapping's response as a response-template (as WireMock's option), not only those naming the transformer.")
    var globalResponseTemplating = false
    @Flag(name: .customLong("local-response-templating"), help: "Render the responses of WireMock mappings naming the response-template transformer (as WireMock's option; the default with --wiremock-version 3).")
    var localResponseTemplating = false
    @Flag(name: .customLong("disable-response-templating"), help: "Render no WireMock response as a template, response-template named or not (as WireMock 3's option; the default with --wiremock-version 2).")
    var disableResponseTemplating = false
    @Option(name: .customLong("admin-token"), help: "A secret the control (/__tonearm/) and admin (/__admin/) APIs then require as Authorization: Bearer TOKEN; required with a --bind other than loopback (default: $TONEARM_ADMIN_TOKEN).")
    var adminToken: String?
    @Flag(
        name: .customLong("inspector"), inversion: .prefixedNo,
        help: "Serve the inspector page (/__tonearm/inspector/<token>/, its address in the listening line's inspectorUrl): on by default on loopback, off beyond it unless given.")
    var inspector: Bool?
    @Option(name: .customLong("cassette-dir"), help: "The folder POST /__tonearm/cassette may load and record cassettes in (default: the --cassette's folder, else the working directory).")
    var cassetteDir: String?
    @Option(name: .customLong("upstream-timeout"), help: "Seconds a whole upstream exchange (connect, head and body) may take before it is answered 504.")
    var upstreamTimeout = 60.0
    @Option(name: .customLong("shutdown-timeout"), help: "Seconds in-flight exchanges may take after SIGINT or SIGTERM before they are cancelled (answered 503) and the recording is saved.")
    var shutdownTimeout = 5.0

    @Option(name: .customLong("https-port"), help: "Also serve over TLS on this port (0: any free port), with a certificate for localhost signed by the CA, or --tls-cert.")
    var httpsPort: Int?

    @Flag(name: .customLong("intercept-https"), help: "Intercept CONNECT to allowed hosts (HTTPS_PROXY clients), presenting certificates the CA signs.")
    var interceptHTTPS = false

    @Option(name: .customLong("ca-dir"), help: "The folder of the local CA (made on first use, see tonearm ca; default ~/.tonearm/ca).")
    var caDir: String?

    @Option(name: .customLong("tls-cert"), help: "A certificate chain (PEM) for --https-port instead of one the CA signs.")
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: "The private key (PEM) of --tls-cert.")
    var tlsKey: String?

    @Option(name: .customLong("upstream-ca"), help: "A CA certificate (PEM) trusted for upstreams besides the system's (repeatable).")
    var upstreamCA: [String] = []

    func run() async throws {
        let configuration = try makeConfiguration()
        if !["127.0.0.1", "::1", "localhost"].contains(bind) {
            CLIFormat.printError("warning: --bind \(bind) exposes the server (and its recordings) beyond this machine")
        }
        let shutdownSignals = ShutdownSignals()
        let server: TonearmServer
        do {
            server = try await TonearmServer.start(configuration)
        } catch {
            CLIFormat.printError("error: \(error)")
            throw ExitCode(2)
        }
        let line = listeningLine(server)
        // The file first: a harness that sees the line may read the file at once.
        if let readyFile {
            do throws(CassetteError) {
                try AtomicFile.write(Array((line + "\n").utf8), to: URL(fileURLWithPath: readyFile))
            } catch {
                CLIFormat.printError("error: cannot write --ready-file: \(error)")
                try? await server.stop()
                throw ExitCode(2)
            }
        }
        StandardStream.output.writeLine(line)
        if let inspector = server.inspectorURL { ServerConfiguration.standardError("tonearm: inspector at \(inspector.absoluteString)") }
        // A client's POST /__admin/shutdown stops the server as a signal does (the server has begun
        // stopping by itself; the stop below joins it).
        let stopFor = shutdownSignals.stopper
        let request = Task {
            if let asked = await server.shutdownRequested() { stopFor(asked) }
        }
        let signal = await shutdownSignals.next()
        request.cancel()
        // Through the server's log, not straight to standard error: a harness that never reads it may
        // have filled the pipe with miss lines, and a blocking write here would keep the server from stopping.
        ServerConfiguration.standardError("tonearm: \(signal) received, stopping")
        do {
            try await server.stop()
        } catch {
            ServerConfiguration.standardError("error: \(error)")
            ServerConfiguration.flushStandardError(timeout: .seconds(1))
            throw ExitCode(1)
        }
        let recorded = server.journal.filter { $0.source.kind == .network }.count
        StandardStream.output.writeLine(#"{"event":"stopped","exchanges":\#(server.journal.count),"network":\#(recorded)}"#)
    }

    private func makeConfiguration() throws -> ServerConfiguration {
        guard let recordMode = RecordMode(serverName: mode) else {
            throw ValidationError("--mode \(mode): expected one of replay, missing, all, passthrough")
        }
        var hosts: [UpstreamHost] = []
        for value in host {
            guard let parsed = UpstreamHost(value) else {
                throw ValidationError("--host \(value): expected a host such as api.example.com or http://127.0.0.1:9000")
            }
            hosts.append(parsed)
        }
        var upstreamHost: UpstreamHost?
        if let upstream {
            guard let parsed = UpstreamHost(upstream) else {
                throw ValidationError("--upstream \(upstream): expected a base URL such as https://api.example.com (no path)")
            }
            upstreamHost = parsed
        }
        guard minBodyRate >= 0 else {
            throw ValidationError("--min-body-rate \(minBodyRate): expected bytes per second, 0 or more")
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections \(maxConnections): expected at least 1")
        }
        if recordMode != .never, hosts.isEmpty, upstreamHost == nil {
            CLIFormat.printError("warning: --mode \(mode) without --host or --upstream: no request can reach the network")
        }
        if let httpsPort, !(0...65535).contains(httpsPort) {
            throw ValidationError("--https-port \(httpsPort): expected a port from 0 to 65535")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        let upstreamDeadline = try Self.duration(upstreamTimeout, option: "--upstream-timeout", allowsZero: false)
        let pacingText = streamPacing ?? ProcessInfo.processInfo.environment["TONEARM_STREAM_PACING"].flatMap { $0.isEmpty ? nil : $0 }
        guard let pacing = pacingText.map(StreamPacing.init) ?? .recorded else {
            throw ValidationError("--stream-pacing \(pacingText ?? ""): expected recorded, off, or a factor from 0 to 1000 such as 0.5")
        }
        let orderText = webSocketOrder ?? ProcessInfo.processInfo.environment["TONEARM_WEBSOCKET_ORDER"].flatMap { $0.isEmpty ? nil : $0 }
        guard let order = orderText.map(WebSocketMessageOrder.init) ?? .recorded else {
            throw ValidationError("--websocket-order \(orderText ?? ""): expected recorded or keyed")
        }
        guard let version = ServerConfiguration.WireMock.Version(rawValue: wireMockVersion) else {
            throw ValidationError("--wiremock-version \(wireMockVersion): expected 2 (WireMock 2.35.1's behaviour) or 3 (3.x's)")
        }
        let templatingOptions: [(Bool, ServerConfiguration.WireMock.ResponseTemplating)] = [
            (globalResponseTemplating, .global), (localResponseTemplating, .local), (disableResponseTemplating, .off),
        ]
        let templating = templatingOptions.filter(\.0).map(\.1)
        guard templating.count <= 1 else {
            throw ValidationError("--global-response-templating, --local-response-templating and --disable-response-templating exclude one another")
        }
        let shutdownDeadline = try Self.duration(shutdownTimeout, option: "--shutdown-timeout", allowsZero: true)
        var connections: [UpstreamConnection] = []
        for value in connectTo {
            guard let connection = try? UpstreamConnection(parsing: value) else {
                throw ValidationError("--connect-to \(value): expected HOST:PORT:ADDRESS:PORT, such as api.example.test:443:127.0.0.1:8443")
            }
            connections.append(connection)
        }
        let matching = match == nil && ignoreQuery.isEmpty ? nil : try MatchingOptions.configuration(
            attributes: match ?? "method,url,query,body", ignoredQueryParameters: ignoreQuery, ignoredJSONFields: [])
        var redaction = Redaction.default
        redaction.headers.formUnion(redactHeader.map { $0.lowercased() })
        redaction.queryParameters.formUnion(redactQuery)
        var configuration = ServerConfiguration(
            cassette: cassette.map { URL(fileURLWithPath: $0) }, rules: rules.map { URL(fileURLWithPath: $0) },
            mode: recordMode, strategy: try strategy.map(CLIFormat.strategy), matching: matching, hosts: hosts,
            upstream: upstreamHost, rewritesURLs: rewriteURLs, missStatus: missStatus, redaction: redaction, streamPacing: pacing, adminToken: try resolvedAdminToken(),
            cassetteDirectory: cassetteDir.map { URL(fileURLWithPath: $0, isDirectory: true) },
            usageFolder: (usageDir ?? ProcessInfo.processInfo.environment[UsageRecord.environmentVariable]).flatMap {
                $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true)
            },
            network: .init(bindAddress: bind, port: port, upstreamConnections: connections),
            limits: .init(
                headerTimeout: try Self.duration(headerTimeout, option: "--header-timeout", allowsZero: false),
                minimumBodyBytesPerSecond: minBodyRate,
                maximumConnections: maxConnections ?? ServerConfiguration.defaultMaximumConnections,
                upstreamTimeout: upstreamDeadline, shutdownTimeout: shutdownDeadline),
            tls: .init(
                httpsPort: httpsPort, certificateAuthority: try certificateAuthority(), interceptsHTTPS: interceptHTTPS,
                certificateFile: tlsCert.map { URL(fileURLWithPath: $0) }, keyFile: tlsKey.map { URL(fileURLWithPath: $0) },
                upstreamCertificateAuthorities: upstreamCA.map { URL(fileURLWithPath: $0) }),
            journal: .init(file: journal.map { URL(fileURLWithPath: $0) }, limit: journalLimit, maximumBytes: journalMaxBytes),
            inspector: .init(isEnabled: inspector))
        configuration.webSocketOrder = order
        // `tonearm serve` speaks WireMock's admin API and answers from its stub mappings.
        configuration.wireMock = .init(
            rootDirectory: rootDir.map { URL(fileURLWithPath: $0, isDirectory: true) },
            version: version, responseTemplating: templating.first)
        return configuration
    }

    /// The CA in --ca-dir, made there on first use, when something needs it: interception, or an HTTPS
    /// port without its own certificate (or a --ca-dir given outright).
    private func certificateAuthority() throws -> LocalCertificateAuthority? {
        guard interceptHTTPS || caDir != nil || (httpsPort != nil && tlsCert == nil) else { return nil }
        let folder = caDir ?? CACommand.defaultFolder
        do {
            return try LocalCertificateAuthority.loadOrCreate(in: URL(fileURLWithPath: folder, isDirectory: true))
        } catch {
            CLIFormat.printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// `--admin-token`, else `TONEARM_ADMIN_TOKEN` (which, unlike an argument, other users' `ps` does not show).
    private func resolvedAdminToken() throws -> String? {
        let token = adminToken ?? ProcessInfo.processInfo.environment["TONEARM_ADMIN_TOKEN"]
        if let token, token.isEmpty {
            throw ValidationError("--admin-token: the token is empty; give a secret, or leave the option out")
        }
        return token
    }

    /// `seconds` given to `option` as a duration, refused when it is not a number of seconds from 0
    /// (exclusive unless `allowsZero`) to a day.
    private static func duration(_ seconds: Double, option: String, allowsZero: Bool) throws -> Duration {
        let lowest = allowsZero ? "0" : "more than 0"
        guard seconds.isFinite, seconds >= 0, allowsZero || seconds > 0, seconds <= 86_400 else {
            throw ValidationError("\(option) \(seconds): expected seconds, \(lowest) and at most 86400")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private func listeningLine(_ server: TonearmServer) -> String {
        var object: [String: Any] = [
            "event": "listening", "url": server.baseURL.absoluteString, "port": server.port,
            "pid": Int(ProcessInfo.processInfo.processIdentifier), "mode": mode,
        ]
        if let httpsURL = server.httpsBaseURL, let httpsPort = server.httpsPort {
            object["httpsUrl"] = httpsURL.absoluteString
            object["httpsPort"] = httpsPort
        }
        if let file = server.certificateAuthorityFile { object["caCertificate"] = file.path }
        if let inspector = server.inspectorURL { object["inspectorUrl"] = inspector.absoluteString }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// SIGINT and SIGTERM, caught from the moment this is made. It is made before the server starts, so
/// a signal sent as soon as the listening line appears, or while the cassette loads, stops the server
/// (it used to be set up after the line: such a signal killed the process unsaved, or, between
/// ignoring the signal and watching for it, was lost and left the server running).
///
/// The second signal exits at once (status 130): the way out when a stop takes longer than the person
/// or harness sending it will wait (a slow save, a shutdown timeout set high), as Ctrl-C twice does in
/// most servers.
struct ShutdownSignals: ~Copyable {
    private let names: AsyncStream<String>
    private let sources: [any DispatchSourceSignal]
    /// Stops as a signal does, naming what asked (`POST /__admin/shutdown`): it counts as the first
    /// signal, so a signal after it still exits at once.
    let stopper: @Sendable (String) -> Void

    /// How many signals arrived: shared by the sources' handlers.
    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    init() {
        let (names, continuation) = AsyncStream.makeStream(of: String.self)
        self.names = names
        let count = Count()
        stopper = { name in
            _ = count.value.add(1, ordering: .relaxed)
            continuation.yield(name)
        }
        sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            // Ignored first, as libdispatch requires: set after the source, SIG_IGN drops the signal
            // before the source sees it (measured: 8 servers signalled at once, some never stopped).
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // A source coalesces signals that arrive before its handler runs: `data` says how many.
                let received = count.value.add(max(1, Int(source.data)), ordering: .relaxed).newValue
                guard received < 2 else { Self.exitNow(name) }
                continuation.yield(name)
            }
            source.resume()
            return source
        }
    }

    /// Leaves without waiting for the stop under way: standard error may be a pipe nobody reads, so the
    /// message is written without blocking, and nothing else runs (no atexit handlers, no flushing).
    private static func exitNow(_ name: String) -> Never {
        let message = Array("tonearm: second \(name) received, exiting without waiting for the stop (what was not yet saved is lost)\n".utf8)
        _ = fcntl(STDERR_FILENO, F_SETFL, fcntl(STDERR_FILENO, F_GETFL) | O_NONBLOCK)
        _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        _exit(130)
    }

    /// The name of the first signal received since ``init()``.
    func next() async -> String {
        for await name in names { return name }
        return "end of input"
    }
}
