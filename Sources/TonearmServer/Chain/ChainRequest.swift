import Foundation
import Tonearm

/// A request on its way through the ``ResponderChain``: what arrived, the cassette in force when it
/// did, where its target routes, and what earlier stages leave for later ones.
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
    /// Why no stub mapping answered, when mappings were asked: a local request nothing else answers is
    /// told what came closest among them.
    var mappingMiss: MissReport?
    /// Left by the cassette stage for a request only the network can answer.
    var fetch: PendingFetch?

    /// A request that must go to the network: the request with the upstream URL, the allowed upstream,
    /// and why the cassette missed (`nil` when the mode does not replay).
    struct PendingFetch: Sendable {
        var request: Request
        var host: UpstreamHost
        var report: MissReport?
    }

    /// `incoming`, arriving now, routed by `configuration` with `cassette` in force.
    init(_ incoming: ServerRequest, cassette: LoadedCassette, configuration: ServerConfiguration) {
        self.incoming = incoming
        time = Date()
        started = .now
        self.cassette = cassette
        route = RequestRoute.resolve(
            method: incoming.method, target: incoming.target, allowed: configuration.allowedHosts,
            upstream: configuration.upstream, replayOnly: cassette.mode == .never, replayHosts: cassette.trackHosts,
            intercepting: configuration.interceptsHTTPS)
    }

    /// The request as the client sent it: the target as its URL, every header.
    var asSent: Request {
        Request(method: incoming.method, url: incoming.target, headers: incoming.headers, body: incoming.body)
    }
}
