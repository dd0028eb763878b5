import Foundation
import Tonearm
import TonearmTestSupport

/// A real HTTP backend on 127.0.0.1 port 0 for the server to proxy to: TestSupport's ``HTTPTestServer``
/// (the one test HTTP server), spoken to in Tonearm's `Request` and `Response`. Answers with `respond`
/// and keeps the requests it received, as seen on its wire.
package final class TestUpstream: Sendable {
    private let server: HTTPTestServer
    /// Holds every answer of a ``hanging()`` upstream until ``stop()``.
    private let gate: DispatchSemaphore?

    /// `http://127.0.0.1:PORT`.
    package var origin: String { server.baseURL }
    /// The value for `--host`, and the path component.
    package var authority: String { "127.0.0.1:\(server.port)" }

    /// An upstream answering with `respond`, each answer sent `delay` after its request arrived (so that
    /// a test can have many requests in flight at once: each connection is served on its own thread),
    /// its body one byte every `byteInterval` when given (an upstream dripping its body).
    package convenience init(
        delay: Duration = .zero, byteInterval: Duration? = nil,
        respond: @escaping @Sendable (Request) -> Response = TestUpstream.echo
    ) async throws {
        try self.init(delay: delay, byteInterval: byteInterval, gate: nil, respond: respond)
    }

    /// An upstream that answers nothing until ``stop()``: a hung service, however long the test takes
    /// to get to its next step. (A long delay stands in for "never" only until a starved test process
    /// takes longer than the delay to reach that step: under the whole suite on two cores, test tasks
    /// have waited tens of seconds for a thread.)
    package static func hanging() async throws -> TestUpstream {
        // Never waits more than ten minutes, so a test that forgets stop() leaves no thread for good.
        try TestUpstream(delay: .zero, byteInterval: nil, gate: DispatchSemaphore(value: 0), respond: TestUpstream.echo)
    }

    private init(
        delay: Duration, byteInterval: Duration?, gate: DispatchSemaphore?, respond: @escaping @Sendable (Request) -> Response
    ) throws {
        self.gate = gate
        server = try HTTPTestServer { received in
            let response = respond(Self.request(received))
            if let gate {
                _ = gate.wait(timeout: .now() + 600)
                gate.signal()  // the next held answer goes too
            }
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
    package var requests: [Request] { server.received.map(Self.request) }

    /// Stops accepting, and lets a ``hanging()`` upstream's held answers go (to connections the proxy
    /// has long closed).
    package func stop() async throws {
        server.stop()
        gate?.signal()
    }

    private static func request(_ received: HTTPTestServer.ReceivedRequest) -> Request {
        Request(
            method: received.method, url: received.target,
            headers: received.headers.map { HeaderField($0.name, $0.value) }, body: received.body)
    }

    /// Answers JSON naming the method, the target and the body.
    package static let echo: @Sendable (Request) -> Response = { request in
        let body = #"{"method":"\#(request.method)","path":"\#(request.url)","body":"\#(String(decoding: request.body, as: UTF8.self))"}"#
        return Response(status: 200, headers: [HeaderField("Content-Type", "application/json"), HeaderField("Set-Cookie", "a=1"), HeaderField("X-Trace", "a"), HeaderField("Set-Cookie", "b=2"), HeaderField("X-Trace", "b")], body: body)
    }
}
