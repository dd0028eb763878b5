import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm
import TonearmReplay

/// What the protocol delivers for one request.
enum Answer: Sendable {
    /// A final response for the request at `url` (the last hop, after any redirects followed here);
    /// its body delivered in parts at their times when `pacing` is given (a replayed stream).
    case response(Response, url: String, pacing: BodyPacing?)
    /// A redirect for the client to follow itself (Apple platforms, where URLSession supports
    /// `wasRedirectedTo` from a custom protocol).
    case redirect(Response, from: Request, to: Request)
    /// A transport error, a miss, or a network failure.
    case failure(any Error)
}

extension TonearmSession {
    /// Redirect hops followed before giving up, as URLSession does.
    static let maximumRedirects = 16

    /// The answer to `request`: replayed, fetched, or a failure, after any simulated delay. A miss is
    /// reported through `requester` (when it belongs to this session) before the failure is returned.
    ///
    /// swift-corelibs-foundation aborts when a custom protocol reports a redirect, so on Linux recorded
    /// redirects are followed here, each hop answered by the engine (or the network) like any request;
    /// on Apple platforms the redirect is handed to URLSession, which follows it through the protocol.
    func answer(_ request: Request, requester: RequestingTask? = nil) async -> Answer {
        var current = request
        do {
            for _ in 0...Self.maximumRedirects {
                let (response, pacing) = try await exchange(current, requester: requester?.session === replaySession ? requester : nil)
                guard let next = Self.redirectTarget(of: response, for: current) else {
                    return .response(response, url: current.url, pacing: pacing)
                }
                #if canImport(FoundationNetworking) && !TONEARM_TYPECHECK_APPLE_BRANCHES
                current = next
                #else
                return .redirect(response, from: current, to: next)
                #endif
            }
            return .failure(URLError(.httpTooManyRedirects))
        } catch {
            return .failure(error)
        }
    }

    /// One hop: the shared session's answer, from the engine or the network, with its failures as the
    /// `URLError`s a real URLSession reports.
    private func exchange(_ request: Request, requester: RequestingTask?) async throws -> (Response, BodyPacing?) {
        var reportMiss: (@Sendable (SessionMiss) async -> Void)?
        if let requester {
            reportMiss = { miss in await requester.report(miss) }
        }
        do {
            return try await replaySession.respondPaced(
                to: request, network: { try await LiveNetwork.shared.fetch($0) }, reportMiss: reportMiss)
        } catch let failure as ReplayFailure {
            if let simulated = failure.simulatedError { throw simulated.urlError }
            if failure.isSessionFinished {
                throw URLError(.cancelled, userInfo: [NSLocalizedDescriptionKey: failure.description])
            }
            throw URLError(.resourceUnavailable, userInfo: [
                NSLocalizedDescriptionKey: failure.description,
                NSURLErrorFailingURLErrorKey: URL(string: request.url) as Any,
            ])
        }
    }

    /// The request a redirect response leads to, as URLSession would make it; `nil` when `response` is
    /// not a redirect.
    ///
    /// 303 turns any method but HEAD into a bodiless GET, and so do 301 and 302 for POST (what browsers
    /// and URLSession do); 307 and 308 keep method and body.
    static func redirectTarget(of response: Response, for request: Request) -> Request? {
        guard [301, 302, 303, 307, 308].contains(response.status),
            let location = response.headers.first(named: "Location"),
            let base = URL(string: request.url),
            let target = URL(string: location, relativeTo: base)?.absoluteURL
        else { return nil }
        var next = request
        next.url = target.absoluteString
        let method = request.method.uppercased()
        let becomesGet = (response.status == 303 && method != "HEAD")
            || ([301, 302].contains(response.status) && method == "POST")
        if becomesGet {
            next.method = "GET"
            next.body = []
            next.headers.removeAll {
                ["content-type", "content-length"].contains($0.name.lowercased())
            }
        }
        return next
    }
}
