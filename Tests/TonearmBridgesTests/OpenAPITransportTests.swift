import AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession
import Testing
import Tonearm
import TonearmOpenAPI
import TonearmReplay
import TonearmTestSupport

/// The client generated from `Generated/openapi.yaml`, recorded through each of the two common
/// transports against the local server, then replayed with the server stopped.
@Suite struct OpenAPITransportTests {
    static func exercise(_ client: Client) async throws -> (greeting: String, created: String) {
        let greeting = try await client.getGreeting(path: .init(name: "ada"), query: .init(style: "loud"))
        let created = try await client.createGreeting(body: .json(.init(name: "grace")))
        return (try greeting.ok.body.json.message, try created.created.body.json.message)
    }

    static func recordThenReplay(upstream: any ClientTransport) async throws {
        let server = try BridgeUpstream.start()
        let folder = try TemporaryFolder()
        let cassette = folder.file("openapi.json")
        let serverURL = try #require(URL(string: server.baseURL))

        let recording = try ReplaySession.cassette(at: cassette, options: CassetteOptions(record: .all), environment: [:])
        let live = try await exercise(Client(
            serverURL: serverURL, transport: TonearmClientTransport(session: recording, upstream: upstream)))
        try recording.finish()
        #expect(live.greeting == "HELLO, ada")
        #expect(live.created == "Created for grace")
        #expect(server.received.map(\.target) == ["/greetings/ada?style=loud", "/greetings"])
        server.stop()

        let replaying = try ReplaySession.cassette(at: cassette, options: CassetteOptions(record: .never), environment: [:])
        let replayed = try await exercise(Client(
            serverURL: serverURL, transport: TonearmClientTransport(session: replaying, upstream: upstream)))
        #expect(replayed.greeting == live.greeting)
        #expect(replayed.created == live.created)
        #expect(replaying.takeMisses().isEmpty)
        #expect(server.received.count == 2)
    }

    @Test func recordsAndReplaysThroughURLSessionTransport() async throws {
        try await Self.recordThenReplay(upstream: URLSessionTransport())
    }

    @Test func recordsAndReplaysThroughAsyncHTTPClientTransport() async throws {
        try await Self.recordThenReplay(upstream: AsyncHTTPClientTransport(configuration: .init(client: .shared)))
    }

    @Test func aMissReachesTheCallerAsTheUnderlyingError() async throws {
        let session = try ReplaySession.stubs([])
        let client = Client(
            serverURL: try #require(URL(string: "https://api.example.com")),
            transport: TonearmClientTransport(session: session))
        let error = await #expect(throws: ClientError.self) {
            _ = try await client.getGreeting(path: .init(name: "nobody"))
        }
        let failure = try #require(error?.underlyingError as? ReplayFailure)
        #expect(failure.miss?.request.url == "https://api.example.com/greetings/nobody")
        #expect(session.takeMisses().count == 1)
    }

    @Test func stubsAnswerGeneratedOperations() async throws {
        let session = try ReplaySession.stubs([
            .get("https://api.example.com/v1/greetings/ada", .json(#"{"message":"stubbed"}"#))
        ])
        let client = Client(
            serverURL: try #require(URL(string: "https://api.example.com/v1")),
            transport: TonearmClientTransport(session: session))
        let response = try await client.getGreeting(path: .init(name: "ada"))
        #expect(try response.ok.body.json.message == "stubbed")
    }

    @Test func recordingWithoutAnUpstreamSaysWhatToPass() async throws {
        let folder = try TemporaryFolder()
        let session = try ReplaySession.cassette(
            at: folder.file("none.json"), options: CassetteOptions(record: .missing), environment: [:])
        let client = Client(
            serverURL: try #require(URL(string: "https://api.example.com")),
            transport: TonearmClientTransport(session: session))
        let error = await #expect(throws: ClientError.self) {
            _ = try await client.getGreeting(path: .init(name: "ada"))
        }
        let missing = try #require(error?.underlyingError as? MissingUpstreamError)
        #expect(missing.bridge == "TonearmClientTransport")
        #expect(missing.url == "https://api.example.com/greetings/ada")
    }

    @Test("A replayed stream's HTTPBody yields its parts, each no earlier than its recorded time")
    func replayedStreamIsPaced() async throws {
        let body = "data: one\n\ndata: two\n\n"
        let track = Track(
            request: Request(url: "https://api.example.com/v1/stream"),
            response: Response(status: 200, headers: [HeaderField("Content-Type", "text/event-stream")], body: body),
            pacing: BodyPacing(parts: [.init(offset: .zero, byteCount: 11), .init(offset: .milliseconds(300), byteCount: 11)]))
        let transport = TonearmClientTransport(session: ReplaySession(engine: ReplayEngine(tracks: [track])))
        let started = ContinuousClock.now
        let (_, received) = try await transport.send(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/stream"), body: nil,
            baseURL: try #require(URL(string: "https://api.example.com/v1")), operationID: "stream")
        var parts: [(ContinuousClock.Instant, String)] = []
        for try await part in try #require(received) { parts.append((.now, String(decoding: part, as: UTF8.self))) }
        #expect(parts.map(\.1) == ["data: one\n\n", "data: two\n\n"])
        #expect(parts[1].0 - started >= .milliseconds(300))
    }
}
