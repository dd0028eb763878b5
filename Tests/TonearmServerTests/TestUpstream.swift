import Foundation
import Tonearm
import TonearmTestSupport

/// A real HTTP backend on 127.0.0.1 port 0 for the server to proxy to: TestSupport's ``HTTPTestServer``
/// (the one test HTTP server), spoken to in Tonearm's `Request` and `Response`. Answers with `respond`
/// and keeps the requests it received, as seen on its wire.
final class TestUpstream: Sendable {
    private let server: HTTPTestServer

    /// `http://127.0.0.1:PORT`.
    var origin: String { server.baseURL }
    /// The value for `--host`, and the path component.
    var authority: String { "127.0.0.1:\(server.port)" }

    /// An upstream answering with `respond`, each answer sent `delay` after its request arrived (so that
    /// a test can have many requests in flight at once: each connection is served on its own thread),
    /// its body one byte every `byteInterval` when given (an upstream dripping its body).
    init(
        delay: Duration = .zero, byteInterval: Duration? = nil,
        respond: @escaping @Sendable (Request) -> Response = TestUpstream.echo
    ) async throws {
        server = try HTTPTestServer { received in
            let response = respond(Self.request(received))
            if delay > .zero {
                let parts = delay.components
                Thread.sleep(forTimeInterval: Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
            }
            // The server writes the body's own Content-Length.
            let headers = response.headers.filter { !$0.name.equalsIgnoringASCIICase("Content-Length") }
            return HTTPTestServer.Reply(
                status: response.status, headers: headers.map { ($0.name, $0.value) }, body: response.body, byteInterval: byteInterval)
        }
    }

    /// The requests received so far.
    var requests: [Request] { server.received.map(Self.request) }

    func stop() async throws {
        server.stop()
    }

    private static func request(_ received: HTTPTestServer.ReceivedRequest) -> Request {
        Request(
            method: received.method, url: received.target,
            headers: received.headers.map { HeaderField($0.name, $0.value) }, body: received.body)
    }

    /// Answers JSON naming the method, the target and the body.
    static let echo: @Sendable (Request) -> Response = { request in
        let body = #"{"method":"\#(request.method)","path":"\#(request.url)","body":"\#(String(decoding: request.body, as: UTF8.self))"}"#
        return Response(status: 200, headers: [HeaderField("Content-Type", "application/json"), HeaderField("Set-Cookie", "a=1"), HeaderField("X-Trace", "a"), HeaderField("Set-Cookie", "b=2"), HeaderField("X-Trace", "b")], body: body)
    }
}
