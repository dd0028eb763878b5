import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TonearmTesting
import TonearmURLSession
import XCTest

/// Every test of this case runs inside `withCassette`, from `invokeTest`.
final class CassetteXCTests: XCTestCase {
    override func invokeTest() {
        withCassette("profile", options: CassetteOptions(record: .never)) { super.invokeTest() }
    }

    func testReplaysThroughTheScopedSession() async throws {
        let (data, response) = try await URLSession.tonearm.data(from: XCTUnwrap(URL(string: "https://api.example.com/profile?id=1")))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"id":1,"name":"Ada"}"#)
    }

    func testTheCassetteLivesBesideTheTestFile() throws {
        let session = try XCTUnwrap(TonearmSession.current)
        XCTAssertTrue(session.cassetteURL?.path.hasSuffix("__Cassettes__/CassetteXCTests/profile.json") == true)
        XCTAssertTrue(cassetteURL().path.hasSuffix("__Cassettes__/CassetteXCTests/testTheCassetteLivesBesideTheTestFile.json"))
    }
}
