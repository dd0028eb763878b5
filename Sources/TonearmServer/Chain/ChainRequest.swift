import Foundation
import Tonearm

/// A request on its way through the ``ResponderChain``: what arrived, the cassette in force when it
/// did, and where its target routes. Stages read it and never change it: what they find they return
/// (``StageResult``).
package struct ChainRequest: Sendable {
    /// The request as it arrived.
    package let incoming: ServerRequest
    /// When it arrived, for the journal.
    package let time: Date
    /// When it arrived, for the journal's latency.
    package let started: ContinuousClock.Instant
    /// The cassette in force when it arrived: an exchange keeps it even if another is loaded meanwhile.
    let cassette: LoadedCassette
    /// Where the target routes, decided once from the target alone.
    package let route: RequestRoute

    /// `incoming`, arriving now, routed by `configuration` with `cassette` in force; a target under
    /// `extensionPrefix` (the installed extension's reserved path) is the extension's.
    init(_ incoming: ServerRequest, cassette: LoadedCassette, configuration: ServerConfiguration, extensionPrefix: String? = nil) {
        self.incoming = incoming
        time = Date()
        started = .now
        self.cassette = cassette
        route = RequestRoute.resolve(
            method: incoming.method, target: incoming.target, allowed: configuration.allowedHosts,
            upstream: configuration.upstream, replayOnly: cassette.mode == .never, replayHosts: cassette.trackHosts,
            intercepting: configuration.tls.interceptsHTTPS, extensionPrefix: extensionPrefix)
    }

    /// The request as the client sent it: the target as its URL, every header.
    package var asSent: Request {
        Request(method: incoming.method, url: incoming.target, headers: incoming.headers, body: incoming.body)
    }
}
