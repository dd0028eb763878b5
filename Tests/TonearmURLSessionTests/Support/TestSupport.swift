import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a test compares between a live exchange and its replay.
struct Observed: Equatable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    init(_ data: Data, _ response: URLResponse) {
        let http = response as? HTTPURLResponse
        status = http?.statusCode ?? -1
        var headers: [String: String] = [:]
        for (key, value) in http?.allHeaderFields ?? [:] {
            headers["\(key)".lowercased()] = "\(value)"
        }
        self.headers = headers
        body = Array(data)
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

extension URL {
    /// A URL from a string literal the test wrote; a typo fails the test instead of crashing it.
    static func literal(_ string: String) throws -> URL {
        guard let url = URL(string: string) else { throw URLError(.badURL) }
        return url
    }
}
