import Foundation
import Tonearm
import TonearmURLSession
import XCTest

extension XCTestCase {
    /// Runs `body` with a cassette named after this test (`__Cassettes__/<TestCase>/<test>.json` beside
    /// the test file) bound to `URLSession.tonearm`, then saves recordings and fails the test for every
    /// request the cassette could not answer.
    ///
    /// Wrap every test of a case from `invokeTest`:
    /// ```swift
    /// override func invokeTest() {
    ///     withCassette { super.invokeTest() }
    /// }
    /// ```
    /// A cassette that cannot be opened fails the test (naming the file and position) and `body` does
    /// not run.
    public func withCassette(
        _ name: String? = nil, options: CassetteOptions = CassetteOptions(),
        file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) rethrows {
        guard let session = openCassette(name, options: options, file: file, line: line) else { return }
        defer { close(session, file: file, line: line) }
        try session.scoped { try body() }
    }

    /// The `async` form of ``withCassette(_:options:file:line:_:)``.
    public func withCassette(
        _ name: String? = nil, options: CassetteOptions = CassetteOptions(),
        file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Void
    ) async rethrows {
        guard let session = openCassette(name, options: options, file: file, line: line) else { return }
        defer { close(session, file: file, line: line) }
        try await session.scoped { try await body() }
    }

    /// The cassette file for this test: the test method's name, `testSignIn` in `LoginTests`
    /// (`-[LoginTests testSignIn]` on Apple platforms, `LoginTests.testSignIn` elsewhere).
    public func cassetteURL(named name: String? = nil, file: StaticString = #filePath) -> URL {
        let (suite, test) = suiteAndTestName
        return CassetteLocation.url(filePath: "\(file)", suite: suite, test: CassetteLocation.baseName(test), name: name)
    }

    /// The class name and the test method's name, from XCTest's `-[Suite testMethod]` (or `Suite.testMethod`).
    package var suiteAndTestName: (suite: String, test: String) {
        let trimmed = name.trimmingCharacters(in: CharacterSet(charactersIn: "-[]"))
        let test = trimmed.split(whereSeparator: { $0 == " " || $0 == "." }).last.map(String.init) ?? trimmed
        return (String(describing: type(of: self)), test)
    }

    private func openCassette(
        _ name: String?, options: CassetteOptions, file: StaticString, line: UInt
    ) -> TonearmSession? {
        do throws(TonearmError) {
            let session = try TonearmSession.cassette(at: cassetteURL(named: name, file: file), options: options)
            let (suite, test) = suiteAndTestName
            session.replaySession.describeTest(filter: "\(suite)/\(test)")
            return session
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    /// Saves recordings and fails the test for each miss still pending and for a failed save.
    private func close(_ session: TonearmSession, file: StaticString, line: UInt) {
        do throws(TonearmError) {
            try session.finish()
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        #if canImport(Darwin)
        // Made before the misses are taken: the report holds them.
        let report = NetworkReport(testName: suiteAndTestName.test, session: session.replaySession)
        #endif
        let misses = session.takeMisses()
        for miss in misses { XCTFail(miss.description, file: file, line: line) }
        #if canImport(Darwin)
        attachNetworkReport(report, failed: !misses.isEmpty, file: file, line: line)
        #endif
    }

    /// Attaches `report`'s files (``NetworkReport/files``) to this test with `XCTAttachment`, as
    /// `TONEARM_ATTACHMENTS` says (on failure when unset), counting a test as failed when it recorded a
    /// failure or `failed`. Only Apple's XCTest has attachments: with swift-corelibs-xctest (Linux,
    /// Windows) this does nothing, and the Swift Testing traits are the way to get them there.
    package func attachNetworkReport(_ report: @autoclosure () -> NetworkReport, failed: Bool, file: StaticString, line: UInt) {
        #if canImport(Darwin)
        let policy: NetworkAttachments
        do throws(TonearmError) {
            policy = try NetworkAttachments.fromEnvironment(ProcessInfo.processInfo.environment) ?? .onFailure
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return
        }
        guard policy.attaches(failed: failed || testRun?.hasSucceeded == false) else { return }
        for attached in report().files {
            let attachment = XCTAttachment(data: Data(attached.bytes))
            attachment.name = attached.name
            attachment.lifetime = .keepAlways
            add(attachment)
        }
        #endif
    }
}
