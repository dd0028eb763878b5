import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm

/// What the protocol delivers for one request.
enum Answer: Sendable {
    /// A final response for the request at `url` (the last hop, after any redirects followed here).
    case response(Response, url: String)
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
                let response = try await exchange(current, requester: requester?.session === self ? requester : nil)
                guard let next = Self.redirectTarget(of: response, for: current) else {
                    return .response(response, url: current.url)
                }
                #if canImport(FoundationNetworking)
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

    /// One hop: the engine's answer, or the network's in recording and passthrough modes.
    private func exchange(_ request: Request, requester: RequestingTask?) async throws -> Response {
        guard !isFinished else {
            throw URLError(.cancelled, userInfo: [
                NSLocalizedDescriptionKey: "Tonearm: the session for \(source) has finished; requests after the test ends are not answered"
            ])
        }
        if mode.replays {
            switch engine.match(redaction.redact(request)) {
            case .hit(let hit):
                if let delay = hit.track.delay { try await Task.sleep(for: delay) }
                switch hit.track.outcome {
                case .response(let response):
                    log(LoggedExchange(request: request, source: .replayed, status: response.status))
                    return response
                case .transportError(let error):
                    log(LoggedExchange(request: request, source: .replayed, failure: error.description))
                    throw error.urlError
                }
            case .miss(let report):
                if !mode.reachesNetworkOnMiss {
                    let miss = SessionMiss(source: source, request: request, report: report, howToRecord: howToRecord)
                    noteMiss(miss, reportedInRequestingTask: requester != nil)
                    await requester?.report(miss)
                    throw URLError(.resourceUnavailable, userInfo: [
                        NSLocalizedDescriptionKey: miss.description,
                        NSURLErrorFailingURLErrorKey: URL(string: request.url) as Any,
                    ])
                }
            }
        }
        do {
            let response = try await LiveNetwork.shared.fetch(request)
            if mode.records {
                let track = Track(request: request, response: response)
                noteRecorded(track)
                // In missing mode the engine answers from what was just recorded, as if the cassette had
                // been reloaded; the recording request counts as its first play (docs/testing.md).
                if mode == .missing { engine.add(redaction.redact(track), playedByRecordingRequest: true) }
            }
            log(LoggedExchange(request: request, source: .network, status: response.status))
            return response
        } catch {
            log(LoggedExchange(request: request, source: .network, failure: "\(error)"))
            throw error
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
