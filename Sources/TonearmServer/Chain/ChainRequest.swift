import Foundation
import Tonearm

/// A request on its way through the ``ResponderChain``: what arrived, the cassette in force when it
/// did, and where its target routes. Stages read it and never change it: what they find they return
/// (``StageResult``).
struct ChainRequest: Sendable {
    /// The request as it arrived.
    let incoming: ServerRequest
    /// When it arrived, for the journal.
    let time: Date
    /// When it arrived, for the journal's latency.
    let started: ContinuousClock.Instant
    /// The cassette in force when it arrived: an exchange keeps it even if another is loaded meanwhile.
    let cassette: LoadedCassette
    /// Where the target routes, decided once from the target alone.
    let route: RequestRoute

    /// `incoming`, arriving now, routed by `configuration` with `cassette` in force.
    init(_ incoming: ServerRequest, cassette: LoadedCassette, configuration: ServerConfiguration) {
        self.incoming = incoming
        time = Date()
        started = .now
        self.cassette = cassette
        route = RequestRoute.resolve(
            method: incoming.method, target: incoming.target, allowed: configuration.allowedHosts,
            upstream: configuration.upstream, replayOnly: cassette.mode == .never, replayHosts: cassette.trackHosts,
            intercepting: configuration.tls.interceptsHTTPS)
    }

    /// The request as the client sent it: the target as its URL, every header.
    var asSent: Request {
        Request(method: incoming.method, url: incoming.target, headers: incoming.headers, body: incoming.body)
    }
}
