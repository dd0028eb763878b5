import Foundation
import Testing
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// WireMock itself, for the differential harness: java, and the standalone jar the PyPI `wiremock`
/// package ships in the virtual environment `.ci/run` creates.
enum WireMockJar {
    static let java: String? = ["/usr/bin/java", "/usr/local/bin/java"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let jar: String? = {
        let lib = packageRoot.appendingPathComponent(".build/python-venv/lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        return versions.filter { $0.hasPrefix("python3") }.sorted().lazy
            .map { lib.appendingPathComponent("\($0)/site-packages/wiremock/server/wiremock-standalone-2.35.1.jar").path }
            .first { FileManager.default.fileExists(atPath: $0) }
    }()

    static var missing: String? {
        if java == nil { return "no java: scripts/setup-system.sh ci installs openjdk-17-jre-headless" }
        if jar == nil { return "no wiremock-standalone-2.35.1.jar: run .ci/run once (it pip-installs wiremock into .build/python-venv)" }
        if WireMockPython.interpreter == nil { return WireMockPython.missingMessage }
        if builtExecutable("tonearm") == nil { return "the tonearm executable was not found next to the test bundle" }
        return nil
    }
}

@Suite("WireMock differential harness")
struct WireMockDifferentialTests {
    @Test("CI has WireMock and java", .enabled(if: WireMockPython.required, "local run: WireMock is optional"))
    func wireMockIsInstalled() {
        #expect(WireMockJar.missing == nil, Comment(rawValue: WireMockJar.missing ?? ""))
    }

    @Test(
        "scripts/wiremock-diff.py: every difference from WireMock 2.35.1 is fixed or listed with its reason",
        .enabled(if: WireMockJar.missing == nil, Comment(rawValue: WireMockJar.missing ?? "")))
    func noUnexplainedDifferences() async throws {
        let python = try #require(WireMockPython.interpreter)
        let script = packageRoot.appendingPathComponent("scripts/wiremock-diff.py").path
        let run = try await ProcessRun.run(python, [
            script, "--tonearm", try #require(builtExecutable("tonearm")).path, "--jar", try #require(WireMockJar.jar),
            "--java", try #require(WireMockJar.java),
        ])
        #expect(run.status == 0, Comment(rawValue: run.output + run.errors))
    }
}
