import Foundation
import NIOCore
import Synchronization
import Tonearm
import TonearmCassettes
import TonearmReplay

/// The inspector (docs/server.md, "Inspector"): a page on the server's own port, at
/// `/__tonearm/inspector/<token>/`, showing every exchange live, each miss with its nearest recordings,
/// the cassette's state, and actions that fix a miss in the cassette file.
///
/// | Method and path (after the token) | What it does |
/// | --- | --- |
/// | `GET` (the base), `GET index.html`, `GET *.js`, `GET style.css` | the page, embedded in the binary |
/// | `GET events` | Server-Sent Events: `state`, `exchanges` (``InspectorFeed``) |
/// | `GET api/state`, `GET api/exchanges?after=&limit=`, `GET api/exchanges/ID` | the server, the journal |
/// | `GET api/misses`; `POST api/misses/ID/accept`, `…/record`, `…/dismiss` | the miss inbox |
/// | `GET api/cassette`; `POST api/reset`, `api/scenarios/reset`, `api/mode` | the cassette |
/// | `POST api/explain` | what would answer a pasted request, without sending it |
///
/// The token is checked first, in constant time: without it 401, with a wrong one 403. The control-plane
/// guard has already refused other pages (Host, Origin, Sec-Fetch-Site, the body's type). Every answer
/// carries a strict Content-Security-Policy (no inline script), `nosniff` and `no-referrer` (the token
/// is in the address), and is never cached.
final class Inspector: Sendable {
    /// The first path component after `/__tonearm/`.
    static let pathPrefix = "inspector"

    let token: InspectorToken
    /// Whether the page is served (``ServerConfiguration/Inspector``).
    let isEnabled: Bool
    let journal: Journal
    let cassettes: CassetteOperations
    /// What another module adds to the request path (WireMock's mappings), shown beside the cassette.
    let installedExtension: (any ServerExtension)?
    let upstreamClient: UpstreamClient
    let address: ServerAddress
    /// The exchange numbers of misses dismissed or fixed in the page, which the inbox no longer lists.
    private let dismissed = Mutex(Set<Int>())
    /// Whether the loaded cassette's file can keep a track, and why not, worked out once per file: it
    /// reads the file's first bytes, which the feed's state and every listed miss would otherwise do
    /// again on the event loop. (A file's format does not change while it is served: Tonearm writes only
    /// the format it detected, or, for a file it creates, the one its name implies.)
    private let writability = Mutex<(file: String?, writable: Bool, whyNot: String?)?>(nil)

    init(
        token: InspectorToken, isEnabled: Bool, journal: Journal, cassettes: CassetteOperations, installedExtension: (any ServerExtension)?,
        upstreamClient: UpstreamClient, address: ServerAddress
    ) {
        self.token = token
        self.isEnabled = isEnabled
        self.journal = journal
        self.cassettes = cassettes
        self.installedExtension = installedExtension
        self.upstreamClient = upstreamClient
        self.address = address
    }

    /// The page's address on the server at `base` (`http://127.0.0.1:PORT`).
    func url(base: String) -> String {
        base + RequestRoute.controlPrefix + "/" + Self.pathPrefix + "/" + token.text + "/"
    }

    /// The fields every inspector answer carries.
    static let securityFields = [
        HeaderField(
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
        HeaderField("X-Content-Type-Options", "nosniff"),
        HeaderField("Referrer-Policy", "no-referrer"),
        HeaderField("X-Frame-Options", "DENY"),
        HeaderField("Cross-Origin-Resource-Policy", "same-origin"),
        HeaderField("Cache-Control", "no-store"),
    ]

    // MARK: - Routing

    /// The answer to `request`, whose path after `/__tonearm/` is `path` (starting `inspector`).
    func respond(path: String, query: String, request: ServerRequest) -> Staged<Response> {
        guard isEnabled else {
            return .now(Self.text(404, """
                the inspector is off on this server: it is served on loopback addresses only, unless the server \
                is started with --inspector (ServerConfiguration.inspector.isEnabled)
                """))
        }
        var rest = path.dropFirst(Self.pathPrefix.count)
        if rest.hasPrefix("/") { rest = rest.dropFirst() }
        let slash = rest.firstIndex(of: "/")
        let given = rest[..<(slash ?? rest.endIndex)]
        guard !given.isEmpty else {
            return .now(Self.refusal(401, """
                the inspector's address carries the server's token: open the inspectorUrl of the server's \
                listening line (also on its standard error), /__tonearm/inspector/<token>/
                """))
        }
        guard token.accepts(given) else {
            return .now(Self.refusal(403, "this is not the inspector's token for this server: open the inspectorUrl the server printed"))
        }
        guard let slash else {
            // The page's relative addresses need the trailing slash.
            let location = RequestRoute.controlPrefix + "/" + Self.pathPrefix + "/" + token.text + "/" + (query.isEmpty ? "" : "?" + query)
            return .now(Self.secured(Response(status: 308, headers: [HeaderField("Location", location)])))
        }
        let route = rest[rest.index(after: slash)...]
        let method = request.method.uppercased()
        let parameters = Self.parameters(query)
        switch (method, route) {
        case ("GET", ""), ("HEAD", ""):
            return .now(asset("index.html"))
        case ("GET", "api/state"):
            return .now(Self.json(state()))
        case ("GET", "api/exchanges"):
            // Up to the whole journal (10,000 entries by default): encoded off the event loop, as the
            // miss inbox (each miss with its candidates) and the cassette are.
            let after = parameters["after"].flatMap { Int($0) }, limit = parameters["limit"].flatMap { Int($0) }
            return .onThreadPool { Self.json(self.exchanges(after: after, limit: limit)) }
        case ("GET", "api/misses"):
            return .onThreadPool { Self.json(.array(self.openMisses().map { self.missSummary($0) })) }
        case ("GET", "api/cassette"):
            return .onThreadPool { Self.json(self.cassette()) }
        case ("POST", "api/reset"):
            cassettes.reset()
            return .now(Self.secured(Response(status: 204)))
        case ("POST", "api/scenarios/reset"):
            cassettes.current.engine.engine.resetScenarios()
            installedExtension?.resetScenarios()
            return .now(Self.secured(Response(status: 204)))
        case ("POST", "api/mode"):
            return .onThreadPool { self.switchMode(request.body) }
        case ("POST", "api/explain"):
            return .onThreadPool { self.explain(request.body) }
        default:
            break
        }
        let segments = route.split(separator: "/", omittingEmptySubsequences: false)
        if method == "GET", segments.count == 3, segments[0] == "api", segments[1] == "exchanges", let id = Int(segments[2]) {
            return .now(detail(id))
        }
        if method == "POST", segments.count == 4, segments[0] == "api", segments[1] == "misses", let id = Int(segments[2]) {
            switch segments[3] {
            case "accept": return .onThreadPool { self.accept(id, body: request.body) }
            case "record": return record(id)
            case "dismiss": return .now(dismiss(id))
            default: break
            }
        }
        if method == "GET" || method == "HEAD", segments.count == 1, InspectorAssets.file(named: String(route)) != nil {
            return .now(asset(String(route)))
        }
        return .now(Self.json(.object(["error": .string("no inspector endpoint \(method) \(route)")]), status: 404))
    }

    /// Whether `path` (after `/__tonearm/`) and `method` ask for the event feed with a good token: the
    /// one answer that is a stream, made by ``feed(query:headers:)``.
    func isFeed(path: String, method: String) -> Bool {
        guard isEnabled, method.uppercased() == "GET" else { return false }
        let expected = Self.pathPrefix + "/" + token.text + "/events"
        return path.utf8.count == expected.utf8.count && token.accepts(path.dropFirst(Self.pathPrefix.count + 1).prefix(token.text.count))
            && path.hasSuffix("/events")
    }

    /// The event feed: its head and its stream, starting after the exchange the page names (`after`,
    /// or the `Last-Event-ID` a reconnecting `EventSource` sends), else after the newest.
    func feed(query: String, headers: [HeaderField]) -> (OutgoingResponse.Head, BodyStream) {
        let resumed = headers.first(named: "Last-Event-ID").flatMap { Int($0.trimmingHTTPWhitespace) }
        let after = resumed ?? Self.parameters(query)["after"].flatMap { Int($0) } ?? (journal.total - 1)
        let head = OutgoingResponse.Head(
            status: 200,
            fields: [HeaderField("Content-Type", "text/event-stream; charset=utf-8"), HeaderField("X-Accel-Buffering", "no")]
                + Self.securityFields)
        return (head, BodyStream(InspectorFeedSource(inspector: self, after: after, now: .now())))
    }

    // MARK: - Documents

    /// `api/state`: the server, its cassette and counts (also the feed's `state` event).
    func state() -> JSONValue {
        let loaded = cassettes.current
        let writable = acceptability()
        let configuration = cassettes.configuration
        return .object([
            "url": .string(address.url),
            "mode": .string(loaded.mode.serverName),
            "strategy": .string(loaded.strategyName),
            "cassette": loaded.url.map { .string($0.path) } ?? .null,
            "cassetteWritable": .bool(writable.0),
            "cassetteWhyNot": writable.1.map(JSONValue.string),
            "exchanges": .integer(journal.total),
            "misses": .integer(openMissCount),
            "journalLimit": .integer(journal.limit),
            "upstreams": .array(configuration.allowedHosts.map { .string($0.origin) }),
        ])
    }

    /// What changes ``state()``: the feed sends the state again when it changes.
    var stateFingerprint: Int {
        let loaded = cassettes.current
        var hasher = Hasher()
        hasher.combine(ObjectIdentifier(loaded))
        hasher.combine(loaded.recordedCount)
        hasher.combine(journal.total)
        hasher.combine(openMissCount)
        return hasher.finalize()
    }

    /// `api/exchanges`: the kept entries after `after`, oldest first, at most `limit` (the newest ones).
    func exchanges(after: Int?, limit: Int?) -> JSONValue {
        let limit = min(max(1, limit ?? journal.limit), journal.limit)
        let (entries, _) = journal.entries(after: after ?? -1, newest: limit)
        return exchangesDocument(entries, skipped: nil)
    }

    /// `{"total","oldest","entries","skipped"}`: what `api/exchanges` answers (without `skipped`) and the
    /// feed's `exchanges` event carries.
    func exchangesDocument(_ entries: [JournalEntry], skipped: Int?) -> JSONValue {
        .object([
            "total": .integer(journal.total),
            "oldest": .integer(journal.oldestSequence),
            "entries": .array(entries.map(InspectorDocuments.summary)),
            "skipped": skipped.map(JSONValue.integer),
        ])
    }

    /// `api/exchanges/ID`: one exchange whole, redacted as recordings are.
    func detail(_ id: Int) -> Response {
        guard let entry = journal.entry(id) else {
            return Self.json(.object(["error": .string("exchange \(id) is no longer in the journal (it keeps the last \(journal.limit))")]), status: 404)
        }
        let redaction = cassettes.configuration.redaction
        let request = redaction.redact(entry.request)
        var members: [JSONMember] = []
        if case .object(let summary) = InspectorDocuments.summary(entry) { members = summary }
        members.append(JSONMember(key: "request", value: InspectorDocuments.request(request, fullBodySize: entry.truncation?.requestBodyBytes)))
        members.append(JSONMember(
            key: "response",
            value: entry.response.map { InspectorDocuments.response(redaction.redact($0), fullBodySize: entry.truncation?.responseBodyBytes) } ?? .null))
        members.append(JSONMember(key: "answeredBy", value: .object([
            "kind": .string(entry.source.kind.rawValue),
            "detail": .string(entry.source.detail),
            "why": InspectorDocuments.why(entry.source.kind).map(JSONValue.string) ?? .null,
            "request": answeringEntry(of: entry),
        ])))
        if let conversation = entry.webSocket {
            members.append(JSONMember(
                key: "webSocket", value: InspectorDocuments.conversation(redaction.redact(conversation), leftOut: entry.webSocketMessagesLeftOut)))
        }
        if let pacing = entry.pacing, let response = entry.response {
            members.append(JSONMember(key: "parts", value: InspectorDocuments.parts(pacing, of: redaction.redact(response).body)))
        }
        members.append(JSONMember(key: "miss", value: journal.miss(id).map { missDocument($0) } ?? .null))
        members.append(JSONMember(key: "curl", value: .string(RequestText.curlCommand(for: request))))
        return Self.json(.object(members))
    }

    /// What the track or rule that answered `entry` matches, as the cassette holds it (`{"method","url",
    /// "name"}` for a track, `{"method","pattern","name"}` for a rule), when it is the loaded cassette's: `nil` for other
    /// answers, and for entries from before the cassette in force was loaded.
    private func answeringEntry(of entry: JournalEntry) -> JSONValue? {
        let loaded = cassettes.current
        guard let position = entry.source.position, entry.time >= loaded.loadedAt else { return nil }
        let engine = loaded.engine.engine
        switch entry.source.kind {
        case .track, .recorded:
            guard let track = engine.index.track(at: position) else { return nil }
            return .object([
                "method": .string(track.request.method), "url": .string(track.request.url), "name": track.name.map(JSONValue.string),
            ])
        case .rule, .stub:
            let rules = engine.rules
            guard rules.indices.contains(position) else { return nil }
            return .object([
                "method": rules[position].method.map(JSONValue.string), "pattern": .string(rules[position].pattern),
                "name": .string(rules[position].name),
            ])
        default:
            return nil
        }
    }

    /// The misses still kept and not dismissed, oldest first.
    func openMisses() -> [ServerMiss] {
        let misses = journal.misses
        let closed = dismissed.withLock { closed in
            // Forget the numbers of misses the journal no longer keeps: the set stays as small as the journal.
            if let oldest = misses.first?.sequence { closed = closed.filter { $0 >= oldest } }
            return closed
        }
        return misses.filter { !closed.contains($0.sequence) }
    }

    private var openMissCount: Int {
        max(0, journal.missCount - dismissed.withLock { $0.count })
    }

    /// A miss in the inbox: its exchange's summary, and the miss.
    private func missSummary(_ miss: ServerMiss) -> JSONValue {
        var members: [JSONMember] = []
        if let entry = journal.entry(miss.sequence), case .object(let summary) = InspectorDocuments.summary(entry) { members = summary }
        members.append(JSONMember(key: "miss", value: missDocument(miss)))
        return .object(members)
    }

    /// A miss: its reason, report, nearest candidates, and which actions the server can take.
    func missDocument(_ miss: ServerMiss) -> JSONValue {
        let redaction = cassettes.configuration.redaction
        let fromMappings = miss.lookedIn == StageMiss.stubMappings
        let (canAccept, acceptWhyNot) = acceptability()
        let upstream = recordingUpstream(for: miss.request)
        return .object([
            "id": .integer(miss.sequence),
            "reason": .string(miss.report.reason.description),
            "reasonCode": .string(miss.report.reasonCode),
            "key": .string(miss.report.key.hex),
            "lookedIn": .string(miss.lookedIn),
            "report": .string(miss.report.description),
            "nearest": .array(InspectorDocuments.candidates(of: miss.report, fromMappings: fromMappings, redaction: redaction)),
            "actions": .object([
                "accept": .bool(canAccept),
                "acceptWhyNot": acceptWhyNot.map(JSONValue.string),
                "record": .bool(canAccept && upstream.host != nil),
                "recordWhyNot": canAccept ? upstream.whyNot.map(JSONValue.string) : acceptWhyNot.map(JSONValue.string),
            ]),
            "dismissed": .bool(dismissed.withLock { $0.contains(miss.sequence) }),
        ])
    }

    /// Whether a track can be kept in the loaded cassette, and why not.
    private func acceptability() -> (Bool, String?) {
        let loaded = cassettes.current
        let identity = loaded.url?.path
        if let known = writability.withLock({ $0 }), known.file == identity { return (known.writable, known.whyNot) }
        var answer: (Bool, String?) = (false, "no cassette file is loaded (the server serves rule files only): load one with POST /__tonearm/cassette")
        if let url = loaded.url {
            let folder = FolderConfinement(root: cassettes.configuration.cassetteFolder)
            do throws(TonearmError) {
                _ = try ReplaySession.keptFormat(of: url)
                answer = (true, nil)
            } catch {
                answer = (false, error.description)
            }
            // The page writes only where the control API may: inside the cassette folder.
            do throws(FolderConfinement.Escape) {
                _ = try folder.resolve(url.path)
            } catch {
                answer = (false, "the inspector writes cassettes only inside the cassette folder (--cassette-dir, "
                    + "\(folder.root.path)), and the loaded cassette is \(error)")
            }
        }
        writability.withLock { $0 = (identity, answer.0, answer.1) }
        return answer
    }

    /// The allowed upstream a missed request may be recorded from, or why there is none.
    private func recordingUpstream(for request: Request) -> (host: UpstreamHost?, whyNot: String?) {
        guard let host = UpstreamHost(ofURL: request.url) else {
            return (nil, "\(request.url) names no upstream host (a local path): start the server with --upstream to record it")
        }
        guard let allowed = cassettes.configuration.allowedHosts.first(where: { $0 == host }) else {
            return (nil, "\(host.origin) is not an upstream of this server: start it with --host \(host.origin) to record from it")
        }
        return (allowed, nil)
    }

    /// `api/cassette`: the tracks with how often each answered, the rules, mappings and scenarios.
    func cassette() -> JSONValue {
        let loaded = cassettes.current
        let engine = loaded.engine.engine
        let usage = engine.usage()
        var tracks: [JSONValue] = []
        for position in 0..<engine.index.positionCount {
            guard let track = engine.index.track(at: position) else { continue }
            let status: JSONValue = if case .response(let response) = track.outcome { .integer(response.status) } else { .null }
            tracks.append(.object([
                "position": .integer(position),
                "method": .string(track.request.method),
                "url": .string(track.request.url),
                "name": track.name.map(JSONValue.string) ?? .null,
                "status": status,
                "plays": .integer(usage.trackPlays.indices.contains(position) ? usage.trackPlays[position] : 0),
                "added": .bool(position >= loaded.engine.loadedTrackCount),
                "playable": engine.isPlayable(trackAt: position).map(JSONValue.bool) ?? .null,
            ]))
        }
        let rules = engine.rules.enumerated().map { position, rule -> JSONValue in
            .object([
                "position": .integer(position),
                "name": .string(rule.name),
                "method": rule.method.map(JSONValue.string) ?? .null,
                "pattern": .string(rule.pattern),
                "hits": .integer(usage.rulePlays.indices.contains(position) ? usage.rulePlays[position] : 0),
                "origin": .string(position >= loaded.engine.fileRuleCount ? "stub" : "file"),
            ])
        }
        // Mapping hits as the journal tells them (a mapping's engine is rebuilt as mappings change).
        var mappingHits: [String: Int] = [:]
        for entry in journal.entries where entry.source.kind == .mapping { mappingHits[entry.source.detail, default: 0] += 1 }
        let mappings = installedExtension?.inspectedAnswerers(hitsByDetail: mappingHits) ?? []
        let scenarios = (engine.scenarios + (installedExtension?.scenarios ?? [])).map { scenario -> JSONValue in
            .object([
                "name": .string(scenario.name),
                "state": .string(scenario.state),
                "states": .array(scenario.possibleStates.map(JSONValue.string)),
            ])
        }
        return .object([
            "file": loaded.url.map { .string($0.path) } ?? .null,
            "format": loaded.url.flatMap { try? CassetteFormat.detect($0).name }.map(JSONValue.string) ?? .null,
            "mode": .string(loaded.mode.serverName),
            "strategy": .string(loaded.strategyName),
            "tracks": .array(tracks),
            "rules": .array(rules),
            "mappings": .array(mappings),
            "scenarios": .array(scenarios),
        ])
    }

    // MARK: - Actions

    /// `POST api/misses/ID/accept`: keeps the missed request with a candidate's response
    /// (`{"candidate": i}`) or one edited in the page (`{"response": {"status","headers","body"}}`).
    func accept(_ id: Int, body: [UInt8]) -> Response {
        guard let miss = journal.miss(id) else {
            return Self.json(.object(["error": .string("miss \(id) is no longer in the journal")]), status: 404)
        }
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try JSONValue(parsing: body)
        } catch {
            return Self.json(.object(["error": .string("the body is not JSON: \(error)")]), status: 400)
        }
        let response: Response
        if let index = document[member: "candidate"]?.intValue {
            guard let chosen = InspectorDocuments.candidateResponse(index, of: miss.report) else {
                return Self.json(.object(["error": .string("candidate \(index) is not one of this miss's nearest recordings with a response")]), status: 400)
            }
            response = chosen
        } else if let edited = document[member: "response"] {
            switch Self.response(edited) {
            case .success(let built): response = built
            case .failure(let problem): return Self.json(.object(["error": .string(problem.description)]), status: 400)
            }
        } else {
            return Self.json(.object(["error": .string("expected {\"candidate\": N} or {\"response\": {\"status\", \"headers\", \"body\"}}")]), status: 400)
        }
        return keep(Track(request: miss.request, response: response), miss: id)
    }

    /// `POST api/misses/ID/record`: fetches the missed request from its upstream and keeps the answer.
    func record(_ id: Int) -> Staged<Response> {
        guard let miss = journal.miss(id) else {
            return .now(Self.json(.object(["error": .string("miss \(id) is no longer in the journal")]), status: 404))
        }
        guard case (true, _) = acceptability() else { return .now(keepRefusal(Track(request: miss.request, response: Response(status: 200)))) }
        guard recordingUpstream(for: miss.request).host != nil else {
            return .now(Self.json(.object(["error": .string(recordingUpstream(for: miss.request).whyNot ?? "no upstream")]), status: 409))
        }
        var outgoing = miss.request
        outgoing.headers = HopByHop.removing(from: outgoing.headers, also: HopByHop.andHost)
        let request = outgoing
        return .later { [self] in
            let response: Response
            do throws(UpstreamClient.Failure) {
                response = try await upstreamClient.fetch(request)
            } catch {
                return Self.json(.object(["error": .string("upstream failed: \(error.message)")]), status: 502)
            }
            return await Staged<Response>.onThreadPool { self.keep(Track(request: miss.request, response: response), miss: id) }.value
        }
    }

    /// Keeps `track` in the cassette file and answers what happened; the miss leaves the inbox.
    private func keep(_ track: Track, miss id: Int) -> Response {
        guard case (true, _) = acceptability(), let url = cassettes.current.url else { return keepRefusal(track) }
        do throws(ServerError) {
            let position = try cassettes.keep(track)
            dismissed.withLock { _ = $0.insert(id) }
            let format = (try? ReplaySession.keptFormat(of: url).name) ?? "json"
            let status: JSONValue = if case .response(let response) = track.outcome { .integer(response.status) } else { .null }
            return Self.json(.object([
                "accepted": .bool(true), "file": .string(url.path), "format": .string(format), "track": .integer(position), "status": status,
            ]))
        } catch {
            return keepRefusal(track, error: error.description)
        }
    }

    /// The 409 for a track that cannot be written to the cassette: why, and the track in the native
    /// format for the user to copy.
    private func keepRefusal(_ track: Track, error: String? = nil) -> Response {
        let native = (try? NativeFormat.encode(Cassette(entries: [CassetteEntry(cassettes.configuration.redaction.redact(track))]))) ?? []
        return Self.json(.object([
            "error": .string(error ?? acceptability().1 ?? "the track cannot be written"),
            "native": .string(String(decoding: native, as: UTF8.self)),
        ]), status: 409)
    }

    /// `POST api/misses/ID/dismiss`.
    private func dismiss(_ id: Int) -> Response {
        guard journal.miss(id) != nil else {
            return Self.json(.object(["error": .string("miss \(id) is no longer in the journal")]), status: 404)
        }
        dismissed.withLock { _ = $0.insert(id) }
        return Self.secured(Response(status: 204))
    }

    /// `POST api/mode` `{"mode": "replay" | "missing"}`: reloads the cassette in that mode.
    private func switchMode(_ body: [UInt8]) -> Response {
        guard let document = try? JSONValue(parsing: body), let name = document[member: "mode"]?.stringValue,
            let mode = RecordMode(serverName: name), mode == .never || mode == .missing
        else {
            return Self.json(.object(["error": .string("expected {\"mode\": \"replay\"} or {\"mode\": \"missing\"}")]), status: 400)
        }
        guard let url = cassettes.current.url else {
            return Self.json(.object(["error": .string("no cassette file is loaded, so there is nothing to record into")]), status: 409)
        }
        do throws(ServerError) {
            try cassettes.load(url, mode: mode, strategy: nil)
        } catch {
            return Self.json(.object(["error": .string(error.description)]), status: 422)
        }
        return Self.json(state())
    }

    /// `POST api/explain` `{"text"}`: a curl command or a raw request, its canonical form, key, and what
    /// in the loaded cassette (or the stub mappings) would answer it, without sending it, journaling
    /// it, or moving any strategy.
    private func explain(_ body: [UInt8]) -> Response {
        guard let document = try? JSONValue(parsing: body), let text = document[member: "text"]?.stringValue else {
            return Self.json(.object(["error": .string("expected {\"text\": \"curl … or a raw HTTP request\"}")]), status: 400)
        }
        let request: Request
        do throws(RequestTextError) {
            request = try RequestText.parse(text)
        } catch {
            return Self.json(.object([
                "error": .string(error.description), "line": .integer(error.line), "column": .integer(error.column),
            ]), status: 400)
        }
        let loaded = cassettes.current
        let engine = loaded.engine.engine
        let canonical = engine.canonicalizer.canonicalize(request)
        let answer: JSONValue
        switch engine.peek(request) {
        case .hit(let hit):
            let source = loaded.engine.source(of: hit)
            let status: JSONValue = if case .response(let response) = hit.track.outcome { .integer(response.status) } else { .null }
            answer = .object(["kind": .string(source.kind.rawValue), "detail": .string(source.detail), "status": status, "miss": .null])
        case .miss(let report):
            if let peeked = installedExtension?.peek(request) {
                answer = .object([
                    "kind": .string(peeked.source.kind.rawValue), "detail": .string(peeked.source.detail),
                    "status": peeked.status.map { .integer($0) } ?? .null, "miss": .null,
                ])
            } else {
                let miss = ServerMiss(time: Date(), request: request, report: report, sequence: -1)
                answer = .object(["kind": .string("miss"), "detail": .string(report.reason.description), "status": .null, "miss": missDocument(miss)])
            }
        }
        return Self.json(.object([
            "request": InspectorDocuments.request(cassettes.configuration.redaction.redact(request), fullBodySize: nil),
            "canonical": .string(canonical.description),
            "key": .string(engine.canonicalizer.key(for: request).hex),
            "answer": answer,
        ]))
    }

    // MARK: - Answers

    /// An embedded file of the page.
    private func asset(_ name: String) -> Response {
        guard let file = InspectorAssets.file(named: name) else { return Self.text(404, "no such inspector file") }
        return Self.secured(Response(status: 200, headers: [HeaderField("Content-Type", file.contentType)], body: file.bytes))
    }

    /// `response` with the inspector's security fields.
    static func secured(_ response: Response) -> Response {
        var response = response
        response.headers += securityFields
        return response
    }

    static func json(_ document: JSONValue, status: Int = 200) -> Response {
        secured(.adminJSON(document, status: status))
    }

    static func text(_ status: Int, _ message: String) -> Response {
        secured(ServerCore.plainText(status, message))
    }

    /// A refusal a browser shows: the message as text in a page that names an empty icon, so the
    /// browser does not ask the server for `/favicon.ico` (which would be journaled as the app's miss).
    static func refusal(_ status: Int, _ message: String) -> Response {
        let escaped = message.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let page = """
            <!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>Tonearm inspector: \(status)</title>
            <p>\(escaped)</p>

            """
        return secured(Response(status: status, headers: [HeaderField("Content-Type", "text/html; charset=utf-8")], body: page))
    }

    /// The query's parameters by name (the last of a repeated one), percent-decoded.
    static func parameters(_ query: String) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            parameters[name] = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
        }
        return parameters
    }

    /// What is wrong with an edited response.
    struct EditedResponseProblem: Error, CustomStringConvertible {
        var description: String
    }

    /// A response edited in the page: `{"status": 200, "headers": [["Name","value"], …], "body": "text"}`.
    static func response(_ document: JSONValue) -> Result<Response, EditedResponseProblem> {
        guard let status = document[member: "status"]?.intValue, (100...599).contains(status) else {
            return .failure(EditedResponseProblem(description: "$.response.status: expected a status from 100 to 599"))
        }
        var headers: [HeaderField] = []
        if case .array(let fields)? = document[member: "headers"] {
            for (index, field) in fields.enumerated() {
                guard case .array(let pair) = field, pair.count == 2, let name = pair[0].stringValue, let value = pair[1].stringValue,
                    ResponseEncoding.isValidName(name), ResponseEncoding.isValidValue(value)
                else {
                    return .failure(EditedResponseProblem(
                        description: "$.response.headers[\(index)]: expected [name, value], a token name and a value without control characters"))
                }
                headers.append(HeaderField(name, value))
            }
        }
        let body = document[member: "body"]?.stringValue ?? ""
        return .success(Response(status: status, headers: headers, body: Array(body.utf8)))
    }
}
