import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Tonearm

/// Sends requests to the real network for recording and passthrough, one hop at a time.
///
/// It uses its own plain URLSession, without any Tonearm protocol class, so a recording session never
/// answers itself. Redirects are not followed here: each 3xx comes back as a response, so it is recorded
/// as its own track and replayed as a redirect later.
final class LiveNetwork: Sendable {
    /// One per process: the session is stateless apart from in-flight tasks.
    static let shared = LiveNetwork()
    /// The request property that tells Tonearm's protocols to leave a request to the network.
    static let bypassKey = "org.tonearm.bypass"

    private let delegate = LiveNetworkDelegate()
    private let session: URLSession

    private init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.protocolClasses = (configuration.protocolClasses ?? []).filter { !($0 is TonearmURLProtocol.Type) }
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// The response to `request`, exactly one HTTP exchange.
    func fetch(_ request: Request) async throws -> Response {
        guard let url = URL(string: request.url) else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        #if !canImport(FoundationNetworking) || TONEARM_TYPECHECK_APPLE_BRANCHES
        // On Apple platforms a globally registered protocol may see this session's requests too.
        if let marked = (urlRequest as NSURLRequest).mutableCopy() as? NSMutableURLRequest {
            URLProtocol.setProperty(true, forKey: Self.bypassKey, in: marked)
            urlRequest = marked as URLRequest
        }
        #endif
        let task = session.dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.begin(task.taskIdentifier, continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// Collects each task's response and body and resumes its waiter when the task completes.
///
/// `@unchecked Sendable` because `NSObject` subclasses cannot be checked: its only state is the
/// `Mutex`-guarded dictionary; URLSession calls it from its delegate queue, waiters from any task.
final class LiveNetworkDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Pending {
        var continuation: CheckedContinuation<Response, any Error>
        var response: HTTPURLResponse?
        var body: [UInt8] = []
    }

    private let pending = Mutex<[Int: Pending]>([:])

    func begin(_ taskIdentifier: Int, _ continuation: CheckedContinuation<Response, any Error>) {
        pending.withLock { $0[taskIdentifier] = Pending(continuation: continuation) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        pending.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pending.withLock { $0[dataTask.taskIdentifier]?.body.append(contentsOf: data) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Stop at the 3xx: the caller records it and follows it through Tonearm.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let finished = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            finished.continuation.resume(throwing: error)
            return
        }
        guard let http = finished.response ?? task.response as? HTTPURLResponse else {
            finished.continuation.resume(throwing: URLError(.badServerResponse))
            return
        }
        finished.continuation.resume(returning: Response(
            status: http.statusCode, headers: Self.headers(of: http, decodedBodyLength: finished.body.count),
            body: finished.body))
    }

    /// Response headers sorted by name, since Foundation keeps them in a dictionary.
    ///
    /// URLSession hands over bodies already decoded (gzip, deflate, br), so `Content-Encoding` is
    /// dropped and `Content-Length` restated for the decoded bytes: replaying the recorded encoding
    /// header over a decoded body would make clients decode it a second time.
    static func headers(of response: HTTPURLResponse, decodedBodyLength: Int) -> [HeaderField] {
        response.allHeaderFields.compactMap { key, value -> HeaderField? in
            guard let name = key as? String else { return nil }
            switch name.lowercased() {
            case "content-encoding": return nil
            case "content-length": return HeaderField(name, String(decodedBodyLength))
            default: return HeaderField(name, value as? String ?? "\(value)")
            }
        }.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }
}
