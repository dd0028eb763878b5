import NIOCore

/// The request path of `tonearm serve` (core, chain, writer, and the handlers ``HTTPPipeline`` adds),
/// set up on a channel the caller owns, so that scripts/server-instructions.sh can count what one
/// request costs with callgrind on an `EmbeddedChannel`: callgrind cannot run the whole server, and
/// instruction counts are the only measure this shared machine does not disturb.
package final class RequestPathHarness: Sendable {
    private let connections: ConnectionRegistry
    private let pipeline: HTTPPipeline

    /// The server `configuration` describes, with its timers and upstream client on `group`, not bound.
    package init(configuration: ServerConfiguration, group: any EventLoopGroup) throws(ServerError) {
        let core = try ServerCore(configuration: configuration, group: group)
        connections = ConnectionRegistry(maximumConnections: configuration.limits.maximumConnections)
        pipeline = HTTPPipeline(
            core: core, connections: connections, idleTimeout: .nanoseconds(TonearmServer.nanoseconds(configuration.limits.idleTimeout)))
    }

    /// Admits `channel` as an accepted connection and adds the server's handlers to it, as the listener does.
    package func configure(_ channel: any Channel) throws {
        connections.admit(channel)
        guard case .admitted(let activity) = connections.admission(ofNew: channel) else { throw ChannelError.ioOnClosedChannel }
        try pipeline.configure(channel, activity: activity, tls: nil, origin: nil)
    }
}
