// Only with the URLSessionBench trait (on by default): the binary scripts/package.sh ships leaves
// FoundationNetworking out, and with it libcurl.
#if URLSessionBench
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm
import TonearmCassettes
import TonearmURLSession

/// `tonearm bench --memory --through-urlsession`: the resident memory of replaying a cassette through
/// URLSession, as a test does under CI: a ``TonearmSession`` loads the cassette (record mode `never`),
/// then every recorded request is sent through its `URLSession`, one at a time, in recorded order.
///
/// Figures are from `/proc/self/status` (Linux), less the resident memory before the session was made:
/// `VmHWM`, the highest resident memory while loading and replaying, and `VmRSS` once every request was
/// answered. The requests are the engine's own tracks', turned into `URLRequest`s one at a time, so the
/// harness adds nothing per track; `/usr/bin/time -v` gives the whole process's peak.
struct URLSessionReplayMemory {
    var file: String
    var fileBytes: Int
    var requests: Int
    var hits: Int
    var baselineBytes: Int
    var residentBytes: Int
    var peakBytes: Int

    static func measure(path: String) throws -> URLSessionReplayMemory {
        let url = URL(fileURLWithPath: path)
        let before = ProcessMemory.current()
        let session = try TonearmSession.cassette(at: url, options: CassetteOptions(record: .never), environment: [:])
        let index = session.engine.index
        var hits = 0
        for position in 0..<index.positionCount {
            guard let track = index.track(at: position) else { continue }
            if send(urlRequest(for: track.request), through: session.urlSession) { hits += 1 }
        }
        let after = ProcessMemory.current()
        withExtendedLifetime(session) {}
        return URLSessionReplayMemory(
            file: path, fileBytes: FileAccess.size(of: url), requests: index.positionCount, hits: hits,
            baselineBytes: before.resident, residentBytes: after.resident - before.resident,
            peakBytes: after.peak - before.resident)
    }

    /// Sends `request` and waits for the answer; whether it was a 2xx-5xx response (not an error).
    private static func send(_ request: URLRequest, through session: URLSession) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let answered = Answered()
        session.dataTask(with: request) { data, response, _ in
            answered.set(response is HTTPURLResponse && data != nil)
            done.signal()
        }.resume()
        done.wait()
        return answered.value
    }

    private static func urlRequest(for request: Request) -> URLRequest {
        var urlRequest = URLRequest(url: URL(string: request.url) ?? URL(fileURLWithPath: "/"))
        urlRequest.httpMethod = request.method
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        return urlRequest
    }

    var table: String {
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        return """
            \(file) through URLSession: \(megabytes(fileBytes)), \(requests) requests, \(hits) answered
              peak while loading and replaying: \(megabytes(peakBytes)) (\(String(format: "%.2f", Double(peakBytes) / Double(max(fileBytes, 1))))× the file)
              resident after replaying:         \(megabytes(residentBytes))
              process before the session:       \(megabytes(baselineBytes))
            """
    }
}

/// One answer's flag, set by URLSession's delegate queue and read after the semaphore.
private final class Answered: Sendable {
    private let state = Mutex(false)
    func set(_ value: Bool) { state.withLock { $0 = value } }
    var value: Bool { state.withLock { $0 } }
}
#endif
