import NIOCore
import NIOPosix

/// The event loops a server runs its connections, timers and upstream client on.
///
/// By default every server in a process shares NIO's singleton group (one loop per core): what an app
/// embedding one server wants. A process that runs many servers at once (a test suite) gives each its
/// own loops with ``dedicated(threads:)``, so that work one server does on a loop (a long match, a slow
/// handshake) never holds up another server's connections; or hands in a group it owns with
/// ``shared(_:)``.
///
/// A struct with static members rather than an enum, so that more ways can be added without breaking
/// code that switches over them.
public struct ServerEventLoops: Sendable {
    enum Source: Sendable {
        case singleton
        case group(any EventLoopGroup)
        case dedicated(threads: Int)
    }

    let source: Source

    /// NIO's singleton group, shared with everything else in the process that uses it (the default).
    public static let singleton = ServerEventLoops(source: .singleton)

    /// `group`, which the caller owns: the server never shuts it down.
    public static func shared(_ group: any EventLoopGroup) -> ServerEventLoops {
        ServerEventLoops(source: .group(group))
    }

    /// A group of its own with `threads` loops (at least one), started with the server and shut down
    /// when it stops.
    public static func dedicated(threads: Int = 1) -> ServerEventLoops {
        ServerEventLoops(source: .dedicated(threads: max(1, threads)))
    }

    /// The group to run on, and whether the server owns it (and so shuts it down when it stops).
    func makeGroup() -> (group: any EventLoopGroup, owned: Bool) {
        switch source {
        case .singleton: (MultiThreadedEventLoopGroup.singleton, false)
        case .group(let group): (group, false)
        case .dedicated(let threads): (MultiThreadedEventLoopGroup(numberOfThreads: threads), true)
        }
    }
}
