import Foundation
import NIOCore
import Testing
import TonearmTestSupport
import Tonearm
import TonearmCassettes
import TonearmReplay
@testable import TonearmServer
import TonearmServerTestSupport
@testable import TonearmWireMock

/// The request path's stages, each alone, and the order the server's chain tries them in.
@Suite("Server: responder chain")
struct ResponderChainTests {
    private static func loaded(mode: RecordMode = .never, stubs: String? = nil) throws -> LoadedCassette {
        let cassette = try LoadedCassette(url: nil, rules: [], mode: mode, strategy: nil, matching: nil, redaction: .default)
        if let stubs {
            try cassette.engine.addStubs(RuleFileFormat.decode(Array(stubs.utf8), syntax: .json, file: "test stubs"))
        }
        return cassette
    }

    private static func request(
        _ target: String, method: String = "GET", cassette: LoadedCassette, hosts: [String] = [], extensionPrefix: String? = nil
    ) -> ChainRequest {
        ChainRequest(
            ServerRequest(method: method, target: target, headers: [], body: []), cassette: cassette,
            configuration: ServerConfiguration(hosts: hosts.compactMap { UpstreamHost($0) }, log: { _ in }), extensionPrefix: extensionPrefix)
    }

    /// The answer when the stage answers at once, else `nil`.
    private static func now(_ result: StageResult) -> StageAnswer? {
        guard case .answered(.now(let answer)) = result else { return nil }
        return answer
    }

    /// Whether the stage passed the request on without looking it up.
    private static func passes(_ result: StageResult) -> Bool {
        guard case .passed = result else { return false }
        return true
    }

    private static let usersStub = #"[{"name": "users", "path": "^/v1/users$", "status": 200, "body": "cassette"}]"#

    @Test("The WireMock admin stage claims /__admin and its sub-paths only, answering at once")
    func adminStage() throws {
        let stage = WireMockAdminStage(admin: WireMockAdmin(
            wireMock: try WireMockStubs(rootDirectory: nil), journal: Journal(limit: 10, maximumBytes: 1 << 20), address: ServerAddress()))
        let cassette = try Self.loaded()
        let health = Self.request("/__admin/health", cassette: cassette, extensionPrefix: "/__admin")
        guard let answer = Self.now(stage.respond(to: health)) else { Issue.record("the stage did not answer at once"); return }
        #expect(answer.source.kind == .admin)
        #expect(answer.journaled == nil)
        let other = Self.request("/__administrator", cassette: cassette, extensionPrefix: "/__admin")
        #expect(Self.passes(stage.respond(to: other)))
    }

    @Test("The control stage claims /__tonearm as a task (health at once) and passes everything else")
    func controlStage() throws {
        let configuration = ServerConfiguration(log: { _ in })
        let exchanges = Journal(limit: 10, maximumBytes: 1 << 20)
        let stage = ControlStage(control: ControlAPI(
            cassettes: try CassetteOperations(configuration: configuration, journal: exchanges),
            cassetteFolder: FolderConfinement(root: configuration.cassetteFolder), journal: exchanges,
            address: ServerAddress()))
        let cassette = try Self.loaded()
        let journal = Self.request("/__tonearm/journal", cassette: cassette)
        guard case .answered(.later) = stage.respond(to: journal) else { Issue.record("control call not answered in a task"); return }
        // A health probe never waits behind a cassette being loaded.
        let health = Self.request("/__tonearm/health", cassette: cassette)
        #expect(Self.now(stage.respond(to: health)) != nil, "health not answered at once")
        let traffic = Self.request("/v1/users", cassette: cassette)
        #expect(Self.passes(stage.respond(to: traffic)))
    }

    @Test("The control-plane guard refuses what it refuses on the admin and control routes, unjournaled, and passes the rest")
    func controlPlaneGuardStage() throws {
        let address = ServerAddress()
        address.port = 8080
        let stage = ControlPlaneGuardStage(configured: ControlPlaneGuard(port: 0, bindAddress: "127.0.0.1", token: nil), address: address)
        let cassette = try Self.loaded()
        func request(_ target: String, _ headers: [HeaderField]) -> ChainRequest {
            ChainRequest(
                ServerRequest(method: "POST", target: target, headers: headers, body: Array("{}".utf8)), cassette: cassette,
                configuration: ServerConfiguration(log: { _ in }), extensionPrefix: "/__admin")
        }
        let crossSite = [HeaderField("Host", "127.0.0.1:8080"), HeaderField("Origin", "https://evil.example"),
                         HeaderField("Content-Type", "text/plain")]
        for target in ["/__admin/mappings", "/__tonearm/stubs"] {
            let refused = request(target, crossSite)
            guard let answer = Self.now(stage.respond(to: refused)) else { Issue.record("\(target) not refused at once"); continue }
            guard case .response(let response) = answer.content else { Issue.record("not a response"); continue }
            #expect(response.status == 403)
            #expect(response.headers.first(named: "Tonearm-Refused")?.contains("Origin") == true)
            #expect(answer.journaled == nil, "a refused control call is not the app's traffic")
            #expect(answer.logLine?.contains("refused POST \(target)") == true)
        }
        // The port the guard checks `Host` against is the bound one, read from the address.
        let ownPort = request("/__tonearm/stubs", [HeaderField("Host", "127.0.0.1:8080"), HeaderField("Content-Type", "application/json")])
        #expect(Self.passes(stage.respond(to: ownPort)))
        let otherPort = request("/__tonearm/stubs", [HeaderField("Host", "127.0.0.1:9090"), HeaderField("Content-Type", "application/json")])
        #expect(!Self.passes(stage.respond(to: otherPort)))
        // Traffic is never guarded: the app's own requests come from anywhere the app runs.
        let traffic = request("/v1/users", crossSite)
        #expect(Self.passes(stage.respond(to: traffic)))
    }

    @Test("The mapping stage answers a hit at once and reports a local request's miss to the chain")
    func mappingStage() throws {
        let stubs = try WireMockStubs(rootDirectory: nil)
        try stubs.add(WireMockMapping.decode(
            Array(#"{"request": {"method": "GET", "url": "/v1/users"}, "response": {"status": 201}}"#.utf8), source: "test", reading: WireMockMappingReading()))
        let stage = MappingStage(stubs: stubs)
        let cassette = try Self.loaded()
        let hit = Self.request("/v1/users", cassette: cassette)
        guard let answer = Self.now(stage.respond(to: hit)) else { Issue.record("the stage did not answer at once"); return }
        #expect(answer.source.kind == .mapping)
        guard case .response(let response) = answer.content else { Issue.record("not a response"); return }
        #expect(response.status == 201)
        let miss = Self.request("/v1/orders", cassette: cassette)
        guard case .missed(let missed) = stage.respond(to: miss) else { Issue.record("the miss was not reported to the chain"); return }
        #expect(missed.lookedIn == "the stub mappings")
        #expect(missed.report.nearest.first?.track.request.url.hasSuffix("/v1/users") == true)
        // A request for an upstream is not the mappings' to report.
        let upstream = Self.request("/api.example.com/v1/orders", cassette: try Self.loaded(mode: .missing), hosts: ["api.example.com"])
        #expect(Self.passes(stage.respond(to: upstream)))
    }

    @Test("The refusal stage answers refused routes with what to do, and passes the rest")
    func refusalStage() throws {
        let cassette = try Self.loaded(mode: .missing)
        let connect = Self.request("api.example.com:443", method: "CONNECT", cassette: cassette)
        guard let answer = Self.now(RefusalStage().respond(to: connect)) else { Issue.record("the stage did not answer at once"); return }
        #expect(answer.source.kind == .refused)
        #expect(answer.logLine?.contains("refused CONNECT") == true)
        let allowed = Self.request("/api.example.com/v1", cassette: cassette, hosts: ["api.example.com"])
        #expect(Self.passes(RefusalStage().respond(to: allowed)))
    }

    @Test("The cassette stage replays at once, reports a miss to the chain, and fetches from the network in a task")
    func cassetteStage() async throws {
        let client = UpstreamClient(group: NIOSingletons.posixEventLoopGroup, timeout: .seconds(1), maximumBodySize: 1024)
        let stage = CassetteStage(
            converter: SessionAnswerConverter(configuration: ServerConfiguration(log: { _ in }), address: ServerAddress()), client: client)
        let replaying = try Self.loaded(stubs: Self.usersStub)
        guard let replayed = Self.now(stage.respond(to: Self.request("/v1/users", cassette: replaying))) else {
            Issue.record("the stage did not answer at once"); return
        }
        #expect(replayed.source.kind == .stub)
        guard case .missed(let missed) = stage.respond(to: Self.request("/v1/orders", cassette: replaying)) else {
            Issue.record("the miss was not reported to the chain"); return
        }
        #expect(missed.lookedIn == "the loaded rules")
        #expect(missed.request.url == "/v1/orders")

        let recording = try Self.loaded(mode: .missing)
        let fetching = stage.respond(to: Self.request("/api.example.com/v1/users", cassette: recording, hosts: ["api.example.com"]))
        await client.shutdown()
        guard case .answered(.later) = fetching else { Issue.record("network exchange not a task"); return }
    }

    @Test("With no stage answering, the chain replies with the misses it collected: the first leads, the others are named after it")
    func collectedMisses() async throws {
        let stubs = try WireMockStubs(rootDirectory: nil)
        try stubs.add(WireMockMapping.decode(
            Array(#"{"request": {"method": "GET", "url": "/v1/users"}, "response": {"status": 201}}"#.utf8), source: "test", reading: WireMockMappingReading()))
        let client = UpstreamClient(group: NIOSingletons.posixEventLoopGroup, timeout: .seconds(1), maximumBodySize: 1024)
        let chain = ResponderChain(stages: [
            MappingStage(stubs: stubs),
            CassetteStage(converter: SessionAnswerConverter(configuration: ServerConfiguration(log: { _ in }), address: ServerAddress()), client: client),
        ])
        let request = Self.request("/v1/user", cassette: try Self.loaded(stubs: Self.usersStub))
        let result = chain.answer(request)
        await client.shutdown()
        guard case .now(let answer) = result, case .miss(let first, let others) = answer.content else {
            Issue.record("not one miss reply"); return
        }
        #expect(first.lookedIn == "the stub mappings")
        #expect(others.map(\.lookedIn) == ["the loaded rules"])
        #expect(answer.source.kind == .miss)
        let text = String(decoding: MissResponse.response(for: first, alsoMissed: others, status: 404, acceptsJSON: false).body, as: UTF8.self)
        #expect(text.hasPrefix("Tonearm: no recorded answer in the stub mappings, nor in the loaded rules\n"))
        // Both came near: each report is there, the mappings' first.
        let mappings = try #require(text.range(of: "/v1/users"))
        let rules = try #require(text.range(of: "In the loaded rules:\n"))
        #expect(mappings.lowerBound < rules.lowerBound)
        let json = MissResponse.response(for: first, alsoMissed: others, status: 404, acceptsJSON: true)
        let document = try JSONValue(parsing: json.body)
        #expect(document[member: "source"] == .string("the stub mappings"))
        #expect(document[member: "alsoLookedIn"] == .array([.string("the loaded rules")]))
        guard case .array(let alsoMissed)? = document[member: "alsoMissed"] else { Issue.record("no alsoMissed"); return }
        #expect(alsoMissed.first?[member: "source"] == .string("the loaded rules"))
    }

    @Test("A delay cancelled while waited out is answered 503 and journaled once as cancelled")
    func cancelledDelay() async throws {
        let journal = Journal(limit: 10, maximumBytes: 1 << 20)
        let finisher = AnswerFinisher(
            journal: journal, missStatus: 404, shutdownTimeout: .seconds(5), log: { _ in },
            timer: LoopTimer(group: NIOSingletons.posixEventLoopGroup))
        let pending = Self.request("/v1/slow", cassette: try Self.loaded())
        let delayed = StageAnswer(
            content: .response(Response(status: 200)), source: JournalEntry.Source(kind: .stub, detail: "slow"),
            journaled: pending.asSent, delay: .seconds(60))
        guard case .later(let work) = finisher.reply(.now(delayed), for: pending) else { Issue.record("a delay not waited in a task"); return }
        let task = Task { await work() }
        task.cancel()
        guard let response = await task.value.response else { Issue.record("not a response"); return }
        #expect(response.status == 503)
        #expect(String(decoding: response.body, as: UTF8.self).contains("--shutdown-timeout"))
        #expect(journal.entries.map(\.source.kind) == [.cancelled])
        #expect(journal.entries.first?.response?.status == 503)
    }

    /// The bold names of the numbered items in docs/server.md's "How a request flows through the server", in order.
    private static func documentedStages() throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/server.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## How a request flows through the server\n").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        return section.split(separator: "\n").compactMap { line -> String? in
            guard let dot = line.firstIndex(of: "."), Int(line[..<dot]) != nil, line[dot...].hasPrefix(". **") else { return nil }
            let name = line[line.index(dot, offsetBy: 4)...]
            return name.range(of: "**").map { String(name[..<$0.lowerBound]) }
        }
    }

    @Test("The server's chain: guard, inspector, admin, control, tunnel, mappings, refusal, cassette; replays and mapping hits need no task")
    func order() async throws {
        var configuration = ServerConfiguration(log: { _ in })
        configuration.wireMock = .init()
        let server = try await TonearmServer.start(configuration)
        try server.addStubs(Self.usersStub)
        let core = server.core
        // docs/server.md states the order once, in its list of stages: it must be the chain's.
        let documented = try Self.documentedStages()
        #expect(documented == core.chain.stages.map { type(of: $0).name })
        let stages = core.chain.stages.map { String(describing: type(of: $0)) }
        #expect(stages == [
            "ControlPlaneGuardStage", "InspectorStage", "WireMockAdminStage", "ControlStage", "TunnelStage", "MappingStage", "RefusalStage", "CassetteStage",
        ])

        // The cassette answers before any mapping exists, at once and journaled once (a replay carries
        // the place its encoding is kept).
        guard case .now(let answer) = core.begin(ServerRequest(method: "GET", target: "/v1/users", headers: [], body: [])),
            case .parts(_, _, keep: .some) = answer.message, let replayed = answer.response
        else { Issue.record("replay not answered at once"); return }
        #expect(String(decoding: replayed.body, as: UTF8.self) == "cassette")
        #expect(server.journal.map(\.source.kind) == [.stub])

        // A mapping for the same path answers ahead of the cassette, also at once.
        try #require(core.wireMock).add(WireMockMapping.decode(
            Array(#"{"request": {"method": "GET", "urlPattern": ".*"}, "response": {"status": 200, "body": "mapping"}}"#.utf8),
            source: "test", reading: WireMockMappingReading()))
        guard case .now(let answer) = core.begin(ServerRequest(method: "GET", target: "/v1/users", headers: [], body: [])),
            let mapped = answer.response
        else { Issue.record("mapping hit not answered at once"); return }
        #expect(String(decoding: mapped.body, as: UTF8.self) == "mapping")
        #expect(server.journal.map(\.source.kind) == [.stub, .mapping])

        // The control API comes before the mappings: a catch-all mapping does not shadow it, nor is it journaled.
        guard case .later(let work) = core.begin(ServerRequest(method: "GET", target: "/__tonearm/journal", headers: [], body: []))
        else { Issue.record("control call not a task"); return }
        guard let journal = await work().response else { Issue.record("no journal"); return }
        #expect(journal.status == 200)
        guard case .now(let answer) = core.begin(ServerRequest(method: "GET", target: "/__tonearm/health", headers: [], body: [])),
            let health = answer.response
        else { Issue.record("health not answered at once"); return }
        #expect(String(decoding: health.body, as: UTF8.self).contains(#""status":"ok""#))
        #expect(server.journal.count == 2)

        // The guard comes before both APIs: a cross-origin call is refused before the catch-all mapping
        // could answer it, and is not journaled.
        let crossOrigin = ServerRequest(
            method: "POST", target: "/__admin/mappings", headers: [HeaderField("Origin", "https://evil.example")], body: [])
        guard case .now(let answer) = core.begin(crossOrigin), let refused = answer.response
        else { Issue.record("refusal not answered at once"); return }
        #expect(refused.status == 403)
        #expect(server.journal.count == 2)
        try await server.stop()
    }
}
