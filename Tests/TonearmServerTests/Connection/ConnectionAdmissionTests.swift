import NIOCore
import NIOEmbedded
import Testing
import Tonearm
@testable import TonearmServer

/// What becomes of a connection between its accept and its pipeline: counted, shed for a newer one, or
/// refused. Driven on `EmbeddedChannel`s, so the order of events is the test's, not a loaded runner's.
@Suite("Server: admitting and shedding connections")
struct ConnectionAdmissionTests {
    /// A server core, a registry of at most `maximum` connections and the pipeline the listener sets up.
    /// (Its upstream client must be shut down: ``ServerCore/upstreamClient``.)
    private func pipeline(maximum: Int) throws -> (HTTPPipeline, ConnectionRegistry, ServerCore) {
        let loop = EmbeddedEventLoop()
        let core = try ServerCore(configuration: ServerConfiguration(log: { _ in }), group: loop)
        let registry = ConnectionRegistry(maximumConnections: maximum)
        return (HTTPPipeline(core: core, connections: registry, idleTimeout: .seconds(60)), registry, core)
    }

    private func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let part = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = part { text += String(buffer: buffer) }
        }
        return text
    }

    @Test("A connection shed before its pipeline existed is answered 503 and closed once it is set up, not closed without a word")
    func shedBeforeItsPipeline() async throws {
        let (pipeline, registry, core) = try pipeline(maximum: 1)
        let older = EmbeddedChannel()
        try await older.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40001)).get()
        let newer = EmbeddedChannel()
        try await newer.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40002)).get()
        // Both accepted before either's initializer ran (its event loop was busy): the newer one takes the
        // older one's place, which is waiting for its head.
        registry.admit(older)
        registry.admit(newer)
        guard case .shed = registry.admission(ofNew: older), case .admitted = registry.admission(ofNew: newer) else {
            Issue.record("the older connection was not the one shed")
            return
        }
        try await pipeline.configureAccepted(older, tls: nil).get()
        older.embeddedEventLoop.run()
        let answer = try written(older)
        #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(answer)")
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.contains("--max-connections"))
        #expect(!older.isActive)

        try await pipeline.configureAccepted(newer, tls: nil).get()
        // The newer one is served as usual (nothing is loaded: a miss).
        try newer.writeInbound(ByteBuffer(string: "GET /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        newer.embeddedEventLoop.run()
        let miss = try written(newer)
        #expect(miss.hasPrefix("HTTP/1.1 404 Not Found\r\n"), "\(miss)")
        #expect(newer.isActive)
        await core.upstreamClient.shutdown()
    }

    @Test("A connection accepted while the server stops is refused: closed by its initializer")
    func refusedWhileStopping() async throws {
        let (pipeline, registry, core) = try pipeline(maximum: 4)
        _ = registry.stop()
        let channel = EmbeddedChannel()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40003)).get()
        registry.admit(channel)
        guard case .refused = registry.admission(ofNew: channel) else {
            Issue.record("a connection was admitted to a stopping server")
            return
        }
        try await pipeline.configureAccepted(channel, tls: nil).get()
        #expect(!channel.isActive)
        await core.upstreamClient.shutdown()
    }

    @Test("At the cap, the registry sheds the connection idle longest, then the slow head waiting longest, never a busy one")
    func sheddingOrder() throws {
        let registry = ConnectionRegistry(maximumConnections: 3)
        let channels = (0..<6).map { _ in EmbeddedChannel() }
        func admission(_ index: Int) -> String {
            switch registry.admission(ofNew: channels[index]) {
            case .admitted: "admitted"
            case .shed: "shed"
            case .refused: "refused"
            }
        }
        // Three connections waiting for their heads, in this order; then the second goes idle and the
        // third busy (a request being answered).
        for index in 0..<3 { registry.admit(channels[index]) }
        for (index, phase) in [(1, ConnectionActivity.Phase.idle), (2, .busy)] {
            guard case .admitted(let activity) = registry.admission(ofNew: channels[index]) else {
                Issue.record("connection \(index) was not admitted")
                return
            }
            registry.noteSheddable(activity, word: activity.enter(phase))
        }
        // A fourth takes the idle one's place; a fifth the slow head's; a sixth finds only busy ones.
        registry.admit(channels[3])
        #expect((0..<4).map(admission) == ["admitted", "shed", "admitted", "admitted"])
        registry.admit(channels[4])
        #expect((0..<5).map(admission) == ["shed", "shed", "admitted", "admitted", "admitted"])
        // Connections 3 and 4 are waiting for their heads: the older of them goes for the sixth.
        registry.admit(channels[5])
        #expect((3..<6).map(admission) == ["shed", "admitted", "admitted"])
    }
}
