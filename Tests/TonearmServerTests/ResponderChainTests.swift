import Foundation
import NIOCore
import Testing
import Tonearm
import TonearmCassettes
import TonearmReplay
@testable import TonearmServer

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
        _ target: String, method: String = "GET", cassette: LoadedCassette, hosts: [String] = []
    ) -> ChainRequest {
        ChainRequest(
            ServerRequest(method: method, target: target, headers: [], body: []), cassette: cassette,
            configuration: ServerConfiguration(hosts: hosts.compactMap { UpstreamHost($0) }, log: { _ in }))
    }

    /// The answer when the stage answers at once, else `nil`.
    private static func now(_ staged: Staged<Answer>?) -> Answer? {
        guard case .now(let answer)? = staged else { return nil }
        return answer
    }

    private static let usersStub = #"[{"name": "users", "path": "^/v1/users$", "status": 200, "body": "cassette"}]"#

    @Test("The WireMock admin stage claims /__admin and its sub-paths only, answering at once")
    func adminStage() throws {
        let stage = WireMockAdminStage(admin: WireMockAdmin(
            wireMock: try WireMockStubs(rootDirectory: nil), journal: Journal(limit: 10, maximumBytes: 1 << 20), address: ServerAddress()))
        let cassette = try Self.loaded()
        var health = Self.request("/__admin/health", cassette: cassette)
        guard let answer = Self.now(stage.respond(to: &health)) else { Issue.record("the stage did not answer at once"); return }
        #expect(answer.source.kind == .admin)
        #expect(answer.journaled == nil)
        var other = Self.request("/__administrator", cassette: cassette)
        #expect(stage.respond(to: &other) == nil)
    }

    @Test("The control stage claims /__tonearm as a task and passes everything else")
    func controlStage() throws {
        let configuration = ServerConfiguration(log: { _ in })
        let stage = ControlStage(control: ControlAPI(
            cassettes: try CassetteOperations(configuration: configuration), journal: Journal(limit: 10, maximumBytes: 1 << 20),
            address: ServerAddress()))
        let cassette = try Self.loaded()
        var health = Self.request("/__tonearm/health", cassette: cassette)
        guard case .later? = stage.respond(to: &health) else { Issue.record("control call not answered in a task"); return }
        var traffic = Self.request("/v1/users", cassette: cassette)
        #expect(stage.respond(to: &traffic) == nil)
    }

    @Test("The mapping stage answers a hit at once and leaves its miss report for later stages")
    func mappingStage() throws {
        let stubs = try WireMockStubs(rootDirectory: nil)
        try stubs.add(WireMockMapping.decode(
            Array(#"{"request": {"method": "GET", "url": "/v1/users"}, "response": {"status": 201}}"#.utf8), source: "test", bodyFiles: nil))
        let stage = MappingStage(stubs: stubs)
        let cassette = try Self.loaded()
        var hit = Self.request("/v1/users", cassette: cassette)
        guard let answer = Self.now(stage.respond(to: &hit)) else { Issue.record("the stage did not answer at once"); return }
        #expect(answer.source.kind == .mapping)
        guard case .response(let response) = answer.content else { Issue.record("not a response"); return }
        #expect(response.status == 201)
        var miss = Self.request("/v1/orders", cassette: cassette)
        #expect(stage.respond(to: &miss) == nil)
        #expect(miss.mappingMiss != nil)
    }

    @Test("The refusal stage answers refused routes with what to do, and passes the rest")
    func refusalStage() throws {
        let cassette = try Self.loaded(mode: .missing)
        var connect = Self.request("api.example.com:443", method: "CONNECT", cassette: cassette)
        guard let answer = Self.now(RefusalStage().respond(to: &connect)) else { Issue.record("the stage did not answer at once"); return }
        #expect(answer.source.kind == .refused)
        #expect(answer.logLine?.contains("refused CONNECT") == true)
        var allowed = Self.request("/api.example.com/v1", cassette: cassette, hosts: ["api.example.com"])
        #expect(RefusalStage().respond(to: &allowed) == nil)
    }

    @Test("The cassette stage replays and misses at once, and leaves a network request for the upstream stage")
    func cassetteStage() async throws {
        let stage = CassetteStage(answers: CassetteAnswers(configuration: ServerConfiguration(log: { _ in }), address: ServerAddress()))
        let replaying = try Self.loaded(stubs: Self.usersStub)
        var replay = Self.request("/v1/users", cassette: replaying)
        guard let replayed = Self.now(stage.respond(to: &replay)) else { Issue.record("the stage did not answer at once"); return }
        #expect(replayed.source.kind == .stub)
        var missing = Self.request("/v1/orders", cassette: replaying)
        guard let missed = Self.now(stage.respond(to: &missing)) else { Issue.record("the stage did not answer at once"); return }
        guard case .miss = missed.content else { Issue.record("not a miss"); return }

        let recording = try Self.loaded(mode: .missing)
        var network = Self.request("/api.example.com/v1/users", cassette: recording, hosts: ["api.example.com"])
        #expect(stage.respond(to: &network) == nil)
        #expect(network.fetch?.request.url == "https://api.example.com/v1/users")
        let client = UpstreamClient(group: NIOSingletons.posixEventLoopGroup, timeout: .seconds(1), maximumBodySize: 1024)
        let upstream = UpstreamStage(client: client, answers: stage.answers)
        var replayedAgain = Self.request("/v1/users", cassette: replaying)
        #expect(upstream.respond(to: &replayedAgain) == nil)
        let fetching = upstream.respond(to: &network)
        await client.shutdown()
        guard case .later? = fetching else { Issue.record("network exchange not a task"); return }
    }

    @Test("The server's chain: admin, control, mappings, refusal, cassette, upstream; replays and mapping hits need no task")
    func order() async throws {
        let server = try await TonearmServer.start(ServerConfiguration(log: { _ in }))
        try server.addStubs(Self.usersStub)
        let core = server.core
        let stages = core.chain.stages.map { String(describing: type(of: $0)) }
        #expect(stages == ["WireMockAdminStage", "ControlStage", "MappingStage", "RefusalStage", "CassetteStage", "UpstreamStage"])

        // The cassette answers before any mapping exists, at once and journaled once.
        guard case .now(.response(let replayed)) = core.begin(ServerRequest(method: "GET", target: "/v1/users", headers: [], body: []))
        else { Issue.record("replay not answered at once"); return }
        #expect(String(decoding: replayed.body, as: UTF8.self) == "cassette")
        #expect(server.journal.map(\.source.kind) == [.stub])

        // A mapping for the same path answers ahead of the cassette, also at once.
        try core.wireMock.add(WireMockMapping.decode(
            Array(#"{"request": {"method": "GET", "urlPattern": ".*"}, "response": {"status": 200, "body": "mapping"}}"#.utf8),
            source: "test", bodyFiles: nil))
        guard case .now(.response(let mapped)) = core.begin(ServerRequest(method: "GET", target: "/v1/users", headers: [], body: []))
        else { Issue.record("mapping hit not answered at once"); return }
        #expect(String(decoding: mapped.body, as: UTF8.self) == "mapping")
        #expect(server.journal.map(\.source.kind) == [.stub, .mapping])

        // The control API comes before the mappings: a catch-all mapping does not shadow it, nor is it journaled.
        guard case .later(let work) = core.begin(ServerRequest(method: "GET", target: "/__tonearm/health", headers: [], body: []))
        else { Issue.record("control call not a task"); return }
        guard case .response(let health) = await work() else { Issue.record("no health"); return }
        #expect(String(decoding: health.body, as: UTF8.self).contains(#""status":"ok""#))
        #expect(server.journal.count == 2)
        try await server.stop()
    }
}
