import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Dispatch
import Tonearm

/// Turns the `URLRequest` a protocol receives into a Tonearm ``Request``, body included.
///
/// URLSession hands a protocol the body in one of three places: `httpBody`, `httpBodyStream` (often the
/// only one a protocol sees, e.g. after `httpBody` went through a stream internally), or, for
/// `upload(for:from:)`, nowhere public at all. Each is tried in turn so that a POST's JSON body always
/// takes part in matching.
enum RequestCapture {
    /// The request with its full body; `task` supplies an upload's body when the request has none.
    static func capture(_ urlRequest: URLRequest, task: URLSessionTask?) -> Request {
        var body: [UInt8] = []
        if let data = urlRequest.httpBody {
            body = Array(data)
        } else if let stream = urlRequest.httpBodyStream {
            body = readAll(stream)
        } else if let task {
            body = uploadBody(of: task)
        }
        return Request(
            method: urlRequest.httpMethod ?? "GET",
            url: urlRequest.url?.absoluteString ?? "",
            headers: headers(of: urlRequest),
            body: body)
    }

    /// Header fields sorted by name: `URLRequest` keeps them in a dictionary, so sorting is the only way
    /// to get the same order (and the same cassette bytes) on every run.
    static func headers(of urlRequest: URLRequest) -> [HeaderField] {
        (urlRequest.allHTTPHeaderFields ?? [:])
            .sorted { $0.key.lowercased() < $1.key.lowercased() }
            .map { HeaderField($0.key, $0.value) }
    }

    /// Every byte left in `stream`; a stream that fails part way yields what was read before the error.
    static func readAll(_ stream: InputStream) -> [UInt8] {
        stream.open()
        defer { stream.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
                guard let base = pointer.baseAddress else { return 0 }
                return stream.read(base, maxLength: pointer.count)
            }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    /// The body of an upload task, which no public API exposes to a protocol.
    ///
    /// On swift-corelibs-foundation the task keeps it in a stored property (`knownBody`: data, file or
    /// stream), readable through `Mirror`; this is the one place Tonearm reflects on Foundation's
    /// internals, and it degrades to "no body" if that property ever changes. On Apple platforms the
    /// body of `upload(for:from:)` is not reachable from a protocol; set `httpBody` there instead.
    static func uploadBody(of task: URLSessionTask) -> [UInt8] {
        #if canImport(FoundationNetworking) && !TONEARM_TYPECHECK_APPLE_BRANCHES
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let known = current.children.first(where: { $0.label == "knownBody" }) {
                return bytes(ofKnownBody: known.value)
            }
            mirror = current.superclassMirror
        }
        #endif
        return []
    }

    /// Unwraps `Optional<URLSessionTask._Body>` and reads whichever case it holds.
    private static func bytes(ofKnownBody value: Any) -> [UInt8] {
        var value = value
        let optional = Mirror(reflecting: value)
        if optional.displayStyle == .optional {
            guard let wrapped = optional.children.first?.value else { return [] }
            value = wrapped
        }
        guard let payload = Mirror(reflecting: value).children.first?.value else { return [] }
        if let data = payload as? DispatchData { return Array(data) }
        if let data = payload as? Data { return Array(data) }
        if let file = payload as? URL { return (try? Data(contentsOf: file)).map(Array.init) ?? [] }
        if let stream = payload as? InputStream { return readAll(stream) }
        return []
    }
}
