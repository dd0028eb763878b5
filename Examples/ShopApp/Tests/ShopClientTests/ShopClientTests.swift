import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ShopClient
import Testing
import TonearmTesting

/// The shop's API as recorded from its test instance (scripts/cassette-health-demo.sh serves one on
/// 127.0.0.1:47613 when re-recording).
@Suite(.cassettes(record: .never))
struct ShopClientTests {
    /// The client under test, on the test's Tonearm session.
    func shop() throws -> ShopClient {
        ShopClient(base: try #require(URL(string: "http://127.0.0.1:47613")), session: .tonearm)
    }

    @Test(.cassette) func productPrice() async throws {
        let product = try await shop().product(42)
        #expect(product.name == "Tonearm cartridge")
        #expect(product.price > 0)
    }

    @Test(.cassette) func search() async throws {
        let found = try await shop().search("stylus")
        #expect(found.map(\.id) == [7])
    }

    @Test(.cassette) func cartTotal() async throws {
        #expect(try await shop().total(of: [42, 7]) > 0)
    }
}
