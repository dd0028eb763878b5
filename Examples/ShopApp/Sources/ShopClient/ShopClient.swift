import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A product as the shop's API describes it.
public struct Product: Decodable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var price: Double
}

/// A client for the shop's API: what the example's tests exercise.
public struct ShopClient: Sendable {
    /// Where the API is.
    public var base: URL
    /// The session requests go through (a test hands in Tonearm's).
    public var session: URLSession

    public init(base: URL, session: URLSession) {
        self.base = base
        self.session = session
    }

    /// The product `id`.
    public func product(_ id: Int) async throws -> Product {
        try await get("products/\(id)")
    }

    /// The products whose name contains `text`.
    public func search(_ text: String) async throws -> [Product] {
        var components = URLComponents(url: base.appendingPathComponent("products"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "q", value: text)]
        guard let url = components?.url else { throw URLError(.badURL) }
        return try await decode(url)
    }

    /// The sum of the prices of `ids`.
    public func total(of ids: [Int]) async throws -> Double {
        var sum = 0.0
        for id in ids { sum += try await product(id).price }
        return sum
    }

    private func get<Value: Decodable>(_ path: String) async throws -> Value {
        try await decode(base.appendingPathComponent(path))
    }

    private func decode<Value: Decodable>(_ url: URL) async throws -> Value {
        let (data, response) = try await session.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        return try JSONDecoder().decode(Value.self, from: data)
    }
}
