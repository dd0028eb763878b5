import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Tonearm
import TonearmReplay

/// The `URLProtocol` that answers HTTP(S) requests from a ``TonearmSession``.
///
/// Registered globally (``TonearmSession/installGlobally()``) this class answers from the global session.
/// Each session created with its own URLSession uses a private subclass of it that answers only from
/// that session, so you rarely name this class yourself.
///
/// Foundation marks `URLProtocol` as not `Sendable`; the one place an instance crosses into a task is
/// `ProtocolDelivery`, which explains why that is safe.
open class TonearmURLProtocol: URLProtocol {
    /// The task producing the answer, so `stopLoading` can cancel a pending delay or network fetch.
    private let loading = Mutex<Task<Void, Never>?>(nil)
    /// The task that made the request, captured while URLSession creates this instance (on that task, in
    /// swift-corelibs-foundation), so a miss is reported there; see ``RequestingTask``.
    private let requester = RequestingTask.capture()

    /// The session this class answers for; the base class answers for the global one.
    class var session: TonearmSession? {
        SessionRegistry.globalSession
    }

    /// Whether this class answers `request`: HTTP(S) only, and for the base class only while a global
    /// session is installed.
    override open class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return false
        }
        #if !canImport(FoundationNetworking) || TONEARM_TYPECHECK_APPLE_BRANCHES
        if property(forKey: LiveNetwork.bypassKey, in: request) != nil { return false }
        #endif
        return self == TonearmURLProtocol.self ? SessionRegistry.globalSession != nil : true
    }

    /// Requests are answered as they are; canonicalisation is the engine's job.
    override open class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Starts answering: captures the request (body included) and asks the session on a task.
    override open func startLoading() {
        guard let session = Self.session else {
            client?.urlProtocol(self, didFailWithError: URLError(.cancelled, userInfo: [
                NSLocalizedDescriptionKey: "Tonearm: this session has finished; requests after the test ends are not answered"
            ]))
            return
        }
        let request = RequestCapture.capture(self.request, task: task)
        let delivery = ProtocolDelivery(self)
        let requester = requester
        let work = Task {
            let answer = await session.answer(request, requester: requester)
            guard !Task.isCancelled else { return }  // stopLoading ran: URLSession reports the cancellation
            await delivery.deliver(answer)
        }
        loading.withLock { $0 = work }
    }

    /// Cancels a pending delay or network fetch; URLSession itself reports the cancellation.
    override open func stopLoading() {
        loading.withLock { $0?.cancel() }
    }

    /// Hands `answer` to URLSession; a paced body in parts at their times after the response (a
    /// cancelled load stops between parts: URLSession reports the cancellation).
    func deliver(_ answer: Answer) async {
        guard let client else { return }
        switch answer {
        case .response(let recorded, let url, let pacing):
            let response = ContentDecoding.decoded(recorded)
            guard let http = Self.httpResponse(response, url: url) else {
                client.urlProtocol(self, didFailWithError: URLError(.badURL))
                return
            }
            client.urlProtocol(self, didReceive: http, cacheStoragePolicy: .notAllowed)
            if let pacing, !response.body.isEmpty {
                // Decoding a recorded Content-Encoding changes the body's length; the parts' times stay.
                for await part in PacedDelivery(response.body, pacing) {
                    client.urlProtocol(self, didLoad: Data(part))
                }
                // Cancelled between parts (stopLoading): URLSession reports the cancellation.
                if Task.isCancelled { return }
            } else if !response.body.isEmpty {
                client.urlProtocol(self, didLoad: Data(response.body))
            }
            client.urlProtocolDidFinishLoading(self)
        case .redirect(let response, let from, let to):
            guard let http = Self.httpResponse(response, url: from.url), let target = URL(string: to.url) else {
                client.urlProtocol(self, didFailWithError: URLError(.badURL))
                return
            }
            var next = URLRequest(url: target)
            next.httpMethod = to.method
            for field in to.headers { next.addValue(field.value, forHTTPHeaderField: field.name) }
            if !to.body.isEmpty { next.httpBody = Data(to.body) }
            client.urlProtocol(self, wasRedirectedTo: next, redirectResponse: http)
            // As Apple's CustomHTTPProtocol sample does: end this load; URLSession starts the next hop.
            client.urlProtocol(self, didFailWithError: CocoaError(.userCancelled))
        case .failure(let error):
            client.urlProtocol(self, didFailWithError: error)
        }
    }

    /// The `HTTPURLResponse` for a recorded response. Fields with the same name are joined with ", ",
    /// because Foundation keeps response headers in a dictionary.
    static func httpResponse(_ response: Response, url: String) -> HTTPURLResponse? {
        guard let url = URL(string: url) else { return nil }
        var fields: [String: String] = [:]
        var names: [String: String] = [:]  // lowercased → first spelling, so "content-type" joins "Content-Type"
        for field in response.headers {
            let name = names[field.name.lowercased(), default: field.name]
            names[field.name.lowercased()] = name
            fields[name] = fields[name].map { $0 + ", " + field.value } ?? field.value
        }
        return HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields)
    }
}

/// The protocol class private to one session, identified by its `Tag` type (see `SessionTag`).
final class SessionURLProtocol<Tag: SessionTag>: TonearmURLProtocol {
    override class var session: TonearmSession? {
        SessionRegistry.session(number: Tag.sessionNumber)
    }
}

/// Carries a protocol instance into the task that answers it.
///
/// `@unchecked Sendable` because `URLProtocol` is not `Sendable`. It is safe here: the task only calls
/// `deliver`, which reads `client` and `request`-derived values that URLSession set in `init` and never
/// changes, and calls the client, which URLSession's own protocols also call from background threads.
/// Each instance is delivered to exactly once, from that one task.
struct ProtocolDelivery: @unchecked Sendable {
    private let target: TonearmURLProtocol

    init(_ target: TonearmURLProtocol) {
        self.target = target
    }

    func deliver(_ answer: Answer) async {
        await target.deliver(answer)
    }
}
