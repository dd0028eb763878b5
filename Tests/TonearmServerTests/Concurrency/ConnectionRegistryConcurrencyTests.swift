#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix
import Synchronization
import Testing
import TonearmTestSupport
@testable import TonearmServer

/// The registry of open connections as the server uses it: one thread admits new connections (the
/// listener's event loop), while connections on other event loops change phase and note themselves
/// sheddable, close, and close when shed. Real channels on a group of their own (over socket pairs, no
/// TCP), so each connection's work runs on its own loop as in the server.
///
/// Runs in `swift test` only, not under ThreadSanitizer: the registry's state is behind a `Mutex`, whose
/// contended hand-over TSan cannot see (it waits in the kernel, inside the uninstrumented standard
/// library), so TSan would report races on what the lock does guard; docs/benchmarks.md ("CI: the
/// lock-free containers under ThreadSanitizer") has the demonstration.
@Suite("Server: the connection registry under concurrency")
struct ConnectionRegistryConcurrencyTests {
    /// What shed connections do in the server (after their 503): close.
    private final class ClosesWhenShed: ChannelInboundHandler, Sendable {
        typealias InboundIn = NIOAny

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ShedConnection { context.close(promise: nil) } else { context.fireUserInboundEventTriggered(event) }
        }
    }

    /// An open connection: its channel on one of the group's loops, and the socket's other end, kept
    /// open so that the channel never reads an end of file.
    private struct Connection {
        var channel: any Channel
        var peer: CInt
    }

    private static func open(on loop: any EventLoop) throws -> Connection {
        var ends: [CInt] = [0, 0]
        #if canImport(Glibc)
        let kind = CInt(SOCK_STREAM.rawValue)
        #else
        let kind = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, kind, 0, &ends) == 0 else { throw SocketPairFailed() }
        let channel = try NIOPipeBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(ClosesWhenShed()) }
            }
            .takingOwnershipOfDescriptor(inputOutput: ends[0]).wait()
        return Connection(channel: channel, peer: ends[1])
    }

    private struct SocketPairFailed: Error {}

    /// Moves a connection between idle and waiting for a head on its own loop, one step a task, as
    /// keep-alive clients do, then leaves it idle for good after `steps` changes (or when the test ends):
    /// from then on the registry knows it as sheddable only by the one note it took in last.
    private static func churn(_ channel: any Channel, _ activity: ConnectionActivity, _ registry: ConnectionRegistry, steps: Int, until stopped: SharedCount, step: Int = 0) {
        guard channel.isActive, stopped.value.load(ordering: .relaxed) == 0 else { return }
        let phase: ConnectionActivity.Phase = step % 2 == 0 || step == steps ? .idle : .awaitingHead
        registry.noteSheddable(activity, word: activity.enter(phase))
        guard step < steps else { return }
        channel.eventLoop.execute { churn(channel, activity, registry, steps: steps, until: stopped, step: step + 1) }
    }

    @Test("at the cap, with connections changing phase and closing on four loops, every admission sheds an idle or slow one, never a busy one, and the count never passes the cap")
    func admissionsWhileConnectionsChangePhase() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 4)
        defer { try? group.syncShutdownGracefully() }
        // Shedding queues are kept from 24 connections on and dropped below 12: the rounds below cross
        // both, so queues are rebuilt while connections on other loops note themselves.
        let maximum = 48, busyCount = 6, rounds = 3, admissionsPerRound = 120
        let registry = ConnectionRegistry(maximumConnections: maximum)
        let stopped = SharedCount()
        var connections: [Connection] = []
        var busy: [any Channel] = []
        var refused = 0, overCap = 0
        defer {
            stopped.value.store(1, ordering: .relaxed)
            for connection in connections {
                try? connection.channel.close().wait()
                close(connection.peer)
            }
        }

        func admitNew() throws -> (channel: any Channel, activity: ConnectionActivity)? {
            let connection = try Self.open(on: group.next())
            connections.append(connection)
            registry.admit(connection.channel)
            guard case .admitted(let activity) = registry.admission(ofNew: connection.channel) else {
                refused += 1
                return nil
            }
            return (connection.channel, activity)
        }

        // Busy for good: a connection answering a slow upstream.
        for _ in 0..<busyCount {
            guard let admitted = try admitNew() else { continue }
            let activity = admitted.activity
            try admitted.channel.eventLoop.submit { _ = activity.enter(.busy) }.wait()
            busy.append(admitted.channel)
        }
        for round in 0..<rounds {
            for admission in 0..<admissionsPerRound {
                guard let admitted = try admitNew() else { continue }
                let (channel, activity) = (admitted.channel, admitted.activity)
                // Long enough for the changes of a connection to overlap the next few admissions.
                let steps = 50 + (admission * 37) % 450
                channel.eventLoop.execute { Self.churn(channel, activity, registry, steps: steps, until: stopped) }
                if admission % 10 == 0 {
                    let counted = connections.filter {
                        if case .admitted = registry.admission(ofNew: $0.channel) { true } else { false }
                    }.count
                    if counted > maximum { overCap += 1 }
                }
            }
            guard round < rounds - 1 else { break }
            // Clients leave: below a quarter of the cap, so the queues are dropped and later rebuilt.
            for connection in connections where connection.channel.isActive && !busy.contains(where: { $0 === connection.channel }) {
                // It may be closing already, shed by the last admissions: wait for the close, whoever asked.
                connection.channel.close(promise: nil)
                try connection.channel.closeFuture.wait()
            }
        }
        #expect(refused == 0, "no admission refused while idle or slow connections could make room")
        #expect(overCap == 0, "never more than \(maximum) connections counted")
        for channel in busy {
            guard case .admitted = registry.admission(ofNew: channel) else {
                Issue.record("a busy connection was shed")
                continue
            }
            #expect(channel.isActive)
        }

        // Quiet: no more phase changes, and every shed connection closed (its close runs on its loop).
        stopped.value.store(1, ordering: .relaxed)
        for loop in group.makeIterator() { try loop.submit {}.wait() }
        for connection in connections {
            if case .shed = registry.admission(ofNew: connection.channel) { try connection.channel.closeFuture.wait() }
        }
        let open = connections.filter { $0.channel.isActive }
        #expect(open.count == maximum, "the cap is full: each admission beyond it shed one connection")
        let stopping = registry.stop()
        #expect(Set(stopping.map { ObjectIdentifier($0) }) == Set(open.map { ObjectIdentifier($0.channel) }), "stop returns every open connection")
        let late = try Self.open(on: group.next())
        connections.append(late)
        registry.admit(late.channel)
        guard case .refused = registry.admission(ofNew: late.channel) else {
            Issue.record("a connection was admitted after stop")
            return
        }
    }
}
