import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import Tonearm
import TonearmAsyncHTTPClient
import TonearmReplay
import TonearmTestSupport

@Suite struct AsyncHTTPClientBridgeTests {
    /// A POST whose body arrives as a stream of two chunks, as an AHC user uploading would send it.
    static func streamingPost(_ url: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        let (chunks, continuation) = AsyncStream<ByteBuffer>.makeStream()
        continuation.yield(ByteBuffer(string: "first half, "))
        continuation.yield(ByteBuffer(string: "second half"))
        continuation.finish()
        request.body = .stream(chunks, length: .unknown)
        return request
    }

    static func text(of response: HTTPClientResponse) async throws -> String {
        String(buffer: try await response.body.collect(upTo: 1 << 20))
    }

    @Test func recordsThenReplaysWithTheServerStopped() async throws {
        let server = try BridgeUpstream.start()
        let folder = try TemporaryFolder()
        let cassette = folder.file("ahc.json")

        let recording = try ReplaySession.cassette(at: cassette, options: CassetteOptions(record: .all), environment: [:])
        let recorder = TonearmHTTPClient(session: recording, upstream: HTTPClient.shared)
        let live = try await recorder.execute(Self.streamingPost(server.baseURL + "/echo"), timeout: .seconds(10))
        #expect(live.status == .ok)
        #expect(try await Self.text(of: live) == "first half, second half")
        let greeting = try await recorder.execute(HTTPClientRequest(url: server.baseURL + "/greetings/ada"), timeout: .seconds(10))
        #expect(try await Self.text(of: greeting) == #"{"message":"Hello, ada"}"#)
        try recording.finish()
        #expect(server.received.map(\.path) == ["/echo", "/greetings/ada"])
        #expect(server.received.first?.body == Array("first half, second half".utf8))
        server.stop()

        let replaying = try ReplaySession.cassette(at: cassette, options: CassetteOptions(record: .never), environment: [:])
        let player = TonearmHTTPClient(session: replaying, upstream: HTTPClient.shared)
        let echoed = try await player.execute(Self.streamingPost(server.baseURL + "/echo"), timeout: .seconds(10))
        #expect(try await Self.text(of: echoed) == "first half, second half")
        let replayed = try await player.execute(HTTPClientRequest(url: server.baseURL + "/greetings/ada"), timeout: .seconds(10))
        #expect(replayed.status == .ok)
        #expect(replayed.headers["X-Served-By"] == ["upstream"])
        #expect(try await Self.text(of: replayed) == #"{"message":"Hello, ada"}"#)
        #expect(replaying.takeMisses().isEmpty)
    }

    /// Issue 20 §4: a DVR cassette keeps `Content-Encoding: gzip` on the body URLSession had decoded.
    @Test func aDecodedBodyMarkedGzipIsAnsweredWithoutTheStaleEncoding() async throws {
        let folder = try TemporaryFolder()
        let json = #"{"id":1}"#
        try folder.write("dvr.json", """
            {"name": "user", "interactions": [{"request": {"method": "GET", "url": "https://api.example.com/user"},
              "response": {"status": 200, "headers": {"Content-Type": "application/json", "Content-Encoding": "gzip",
                "Content-Length": "28"}, "body": \(json)}}]}
            """)
        let session = try ReplaySession.cassette(at: folder.file("dvr.json"), options: CassetteOptions(record: .never), environment: [:])
        let client = TonearmHTTPClient(session: session)
        let response = try await client.execute(HTTPClientRequest(url: "https://api.example.com/user"), timeout: .seconds(5))
        #expect(response.headers["Content-Encoding"].isEmpty)
        #expect(response.headers["Content-Length"] == [String(json.utf8.count)])
        #expect(try await Self.text(of: response) == json)
    }

    @Test func aMissInNeverModeThrowsTheReportAndIsKeptForTheTest() async throws {
        let folder = try TemporaryFolder()
        let session = try ReplaySession.cassette(
            at: folder.file("empty.json"), options: CassetteOptions(record: .never), environment: [:])
        let client = TonearmHTTPClient(session: session)
        let failure = await #expect(throws: ReplayFailure.self) {
            _ = try await client.execute(HTTPClientRequest(url: "https://api.example.com/nobody"), timeout: .seconds(5))
        }
        #expect(failure?.miss?.request.url == "https://api.example.com/nobody")
        #expect(failure?.description.contains("has no answer for GET https://api.example.com/nobody") == true)
        #expect(session.takeMisses().count == 1)
    }

    @Test func aRequestBodyOverTheLimitFailsBeforeAnythingIsSentOrRecorded() async throws {
        let server = try BridgeUpstream.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let session = try ReplaySession.cassette(
            at: folder.file("limited.json"), options: CassetteOptions(record: .all), environment: [:])
        // The streamed body is 23 bytes: one byte over the limit is refused, exactly the limit is sent.
        let refusing = TonearmHTTPClient(session: session, upstream: HTTPClient.shared, maximumRequestBodySize: 22)
        let error = await #expect(throws: NIOTooManyBytesError.self) {
            _ = try await refusing.execute(Self.streamingPost(server.baseURL + "/echo"), timeout: .seconds(10))
        }
        #expect(error?.maxBytes == 22)
        #expect(server.received.isEmpty)
        #expect(session.exchanges.isEmpty)

        let accepting = TonearmHTTPClient(session: session, upstream: HTTPClient.shared, maximumRequestBodySize: 23)
        let echoed = try await accepting.execute(Self.streamingPost(server.baseURL + "/echo"), timeout: .seconds(10))
        #expect(try await Self.text(of: echoed) == "first half, second half")
        #expect(server.received.count == 1)
    }

    @Test func responseBodiesAreStreamedBackInChunks() async throws {
        let server = try BridgeUpstream.start()
        let folder = try TemporaryFolder()
        let session = try ReplaySession.cassette(
            at: folder.file("large.json"), options: CassetteOptions(record: .missing), environment: [:])
        let client = TonearmHTTPClient(session: session, upstream: HTTPClient.shared)
        _ = try await client.execute(HTTPClientRequest(url: server.baseURL + "/large"), timeout: .seconds(10))
        server.stop()

        let replayed = try await client.execute(HTTPClientRequest(url: server.baseURL + "/large"), timeout: .seconds(10))
        var chunks = 0
        var body: [UInt8] = []
        for try await chunk in replayed.body {
            chunks += 1
            body += chunk.readableBytesView
        }
        #expect(body == BridgeUpstream.largeBody)
        #expect(chunks > 1)
        #expect(server.received.count == 1)
    }

    @Test func replayedTransportErrorsAreAsyncHTTPClientErrors() async throws {
        let session = try ReplaySession.stubs([
            .get("https://api.example.com/slow", .failure(.timedOut)),
            .get("https://api.example.com/dropped", .failure(.networkConnectionLost)),
        ])
        let client = TonearmHTTPClient(session: session)
        await #expect(throws: HTTPClientError.deadlineExceeded) {
            _ = try await client.execute(HTTPClientRequest(url: "https://api.example.com/slow"), timeout: .seconds(5))
        }
        await #expect(throws: HTTPClientError.remoteConnectionClosed) {
            _ = try await client.execute(HTTPClientRequest(url: "https://api.example.com/dropped"), timeout: .seconds(5))
        }
    }

    @Test func delaysAreHonouredAndCountAgainstTheTimeout() async throws {
        let session = try ReplaySession.stubs([
            .get("https://api.example.com/me", .json(#"{"name":"Ada"}"#).delayed(by: .milliseconds(300)))
        ])
        let client = TonearmHTTPClient(session: session)
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await client.execute(HTTPClientRequest(url: "https://api.example.com/me"), timeout: .seconds(10))
        #expect(clock.now - start >= .milliseconds(300))
        #expect(try await Self.text(of: response) == #"{"name":"Ada"}"#)

        await #expect(throws: HTTPClientError.deadlineExceeded) {
            _ = try await client.execute(HTTPClientRequest(url: "https://api.example.com/me"), timeout: .milliseconds(20))
        }
    }

    @Test func goingToTheNetworkWithoutAnUpstreamSaysSo() async throws {
        let folder = try TemporaryFolder()
        let session = try ReplaySession.cassette(
            at: folder.file("none.json"), options: CassetteOptions(record: .missing), environment: [:])
        await #expect(throws: MissingUpstreamError.self) {
            _ = try await TonearmHTTPClient(session: session).execute(
                HTTPClientRequest(url: "https://api.example.com/me"), timeout: .seconds(5))
        }
    }

    @Test func outsideAnyScopeEveryRequestFailsSayingHow() async throws {
        let failure = await #expect(throws: ReplayFailure.self) {
            _ = try await TonearmHTTPClient().execute(HTTPClientRequest(url: "https://api.example.com/me"), timeout: .seconds(5))
        }
        #expect(failure?.description.contains("no Tonearm session is active") == true)
    }

    @Test("A replayed stream's body arrives as paced chunks, each no earlier than its recorded time after the response; with pacing off, at once")
    func replayedStreamIsPaced() async throws {
        let body = "data: one\n\ndata: two\n\n"
        let track = Track(
            request: Request(url: "https://api.example.com/stream"),
            response: Response(status: 200, headers: [HeaderField("Content-Type", "text/event-stream")], body: body),
            pacing: BodyPacing(parts: [.init(offset: .zero, byteCount: 11), .init(offset: .milliseconds(300), byteCount: 11)]))
        for pacing in [StreamPacing.recorded, .immediate] {
            let session = ReplaySession(engine: ReplayEngine(tracks: [track]))
            session.streamPacing = pacing
            let started = ContinuousClock.now
            let response = try await TonearmHTTPClient(session: session).execute(HTTPClientRequest(url: "https://api.example.com/stream"), timeout: .seconds(5))
            var chunks: [(ContinuousClock.Instant, String)] = []
            for try await chunk in response.body { chunks.append((.now, String(buffer: chunk))) }
            #expect(chunks.map(\.1).joined() == body)
            if pacing == .recorded {
                #expect(chunks.map(\.1) == ["data: one\n\n", "data: two\n\n"])
                #expect(chunks[1].0 - started >= .milliseconds(300))
            } else {
                #expect(chunks.count == 1)
            }
        }
    }
}
