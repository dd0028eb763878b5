import Foundation
import Testing
import TonearmTestSupport

/// `swift package tonearm …` as a package that depends on Tonearm runs it: a consumer package written to a
/// temporary folder, laid out as README's "Adding it to your package" tells a newcomer (the test target's
/// `__Cassettes__` excluded, and created with a `.gitkeep`), depending on this checkout by path.
///
/// Its builds go to `.build-example`, the scratch folder `scripts/cassette-health-demo.sh` (run by CI
/// after the suite) builds the example package in, so the dependencies are cloned once for both. The
/// plugin's tool (the core, the cassette formats, Yams, ArgumentParser) is built from scratch: SwiftPM
/// builds plugin tools from a manifest of their own, and reuses nothing a `swift build` compiled.
/// Minutes on a fresh checkout (docs/benchmarks.md, "CI: the SwiftPM plugin from a consumer package"),
/// so it runs when TONEARM_TEST_CONSUMER_PACKAGE=1, which `.ci/run` sets.
@Suite(
    "The SwiftPM plugin, from a consumer package",
    .enabled(if: ProcessInfo.processInfo.environment["TONEARM_TEST_CONSUMER_PACKAGE"] == "1"),
    .timeLimit(.minutes(30))
)
struct PluginTests {
    /// One test, in order: each step needs the build before it.
    @Test("the newcomer layout builds without warnings; lint and explain run on its cassettes; a broken one fails lint")
    func consumerPackage() async throws {
        let consumer = try ConsumerPackage()

        // README's newcomer step: the warning it avoids comes from loading the package, before anything is
        // compiled, so `swift build` (the library target alone; the tests would build TonearmTesting, which
        // the demo's package builds) is the check.
        let build = try await consumer.swift(["build"])
        #expect(build.status == 0, "\(build.output)\(build.errors)")
        let warnings = (build.output + build.errors).split(separator: "\n").filter { $0.contains("warning:") && $0.contains(consumer.name) }
        #expect(warnings.isEmpty, "the newcomer layout warns: \(warnings)")

        // Before the first recording the folder holds only .gitkeep: nothing to lint, and that is no failure.
        let empty = try await consumer.swift(["package", "tonearm", "lint"])
        #expect(empty.status == 0, "\(empty.output)\(empty.errors)")
        #expect(empty.output.contains("no cassettes in Tests/WeatherTests/__Cassettes__"), "\(empty.output)\(empty.errors)")

        try consumer.write(ConsumerPackage.forecastPath, ConsumerPackage.forecastCassette)
        let lint = try await consumer.swift(["package", "tonearm", "lint"])
        #expect(lint.status == 0, "\(lint.output)\(lint.errors)")
        #expect(lint.output.contains("\(ConsumerPackage.forecastPath): 1 track(s), 0 rule(s), 0 finding(s)"), "\(lint.output)\(lint.errors)")

        let hit = try await consumer.swift([
            "package", "tonearm", "explain", "--cassette", ConsumerPackage.forecastPath, "--url", "https://api.example.com/v1/forecast?city=Oslo",
        ])
        #expect(hit.status == 0, "\(hit.output)\(hit.errors)")
        #expect(hit.output.contains("Match: track #0 \"forecast\" answers with status 200"), "\(hit.output)\(hit.errors)")

        // The read-only verb refuses a subcommand that writes, naming the one that asks for permission.
        let convert = try await consumer.swift(["package", "tonearm", "convert", ConsumerPackage.forecastPath, "forecast.har"])
        #expect(convert.status != 0)
        #expect(convert.errors.contains("swift package tonearm-write convert"), "\(convert.errors)")
        #expect(!FileManager.default.fileExists(atPath: consumer.folder.file("forecast.har").path))

        let brokenPath = "Tests/WeatherTests/__Cassettes__/WeatherTests/broken.json"
        try consumer.write(brokenPath, #"{"formatVersion": 1, "tracks": [{"request": {"method": "GET"}}]}"#)
        let broken = try await consumer.swift(["package", "tonearm", "lint"])
        // SwiftPM exits 1 for any failing plugin, and names the tool's status (2: a file that does not load).
        #expect(broken.status == 1, "\(broken.output)\(broken.errors)")
        #expect(broken.errors.contains("Plugin ended with exit code 2"), "\(broken.errors)")
        // The tool's standard error, like its standard output, arrives on swift package's standard output.
        #expect(broken.output.contains("\(brokenPath):1:45: at $.tracks[0].request.url: expected a URL string"), "\(broken.output)")
        #expect(broken.output.contains("\(ConsumerPackage.forecastPath): 1 track(s)"), "the other cassette is still linted: \(broken.output)")
    }
}

/// The consumer package in a temporary folder.
private struct ConsumerPackage {
    let folder: TemporaryFolder
    /// Its name, which SwiftPM's warnings about it carry (the folder's name, as for any root package).
    var name: String { folder.url.lastPathComponent }

    static let forecastPath = "Tests/WeatherTests/__Cassettes__/WeatherTests/forecast.json"

    init() throws {
        folder = try TemporaryFolder()
        for path in ["Sources/Weather", "Tests/WeatherTests/__Cassettes__"] {
            try FileManager.default.createDirectory(at: folder.file(path), withIntermediateDirectories: true)
        }
        try folder.write("Package.swift", """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "Weather",
                platforms: [.macOS(.v15), .iOS(.v18)],
                dependencies: [
                    .package(name: "Tonearm", path: "\(packageRoot.path)"),
                ],
                targets: [
                    .target(name: "Weather"),
                    .testTarget(
                        name: "WeatherTests",
                        dependencies: ["Weather", .product(name: "TonearmTesting", package: "Tonearm")],
                        exclude: ["__Cassettes__"]
                    ),
                ]
            )

            """)
        try folder.write("Sources/Weather/Forecast.swift", """
            import Foundation

            /// The forecast's address for a city.
            public func forecastURL(city: String) -> URL? {
                URL(string: "https://api.example.com/v1/forecast?city=\\(city)")
            }

            """)
        try folder.write("Tests/WeatherTests/ForecastTests.swift", """
            import Foundation
            #if canImport(FoundationNetworking)
            import FoundationNetworking
            #endif
            import Testing
            import TonearmTesting
            import Weather

            @Suite struct WeatherTests {
                @Test(.cassette) func forecast() async throws {
                    let url = try #require(forecastURL(city: "Oslo"))
                    let (data, _) = try await URLSession.shared.data(from: url)
                    #expect(!data.isEmpty)
                }
            }

            """)
        // README's newcomer step: the excluded folder exists before the first recording.
        try folder.write("Tests/WeatherTests/__Cassettes__/.gitkeep", "")
    }

    static let forecastCassette = """
        {
          "formatVersion": 1,
          "tracks": [
            {
              "name": "forecast",
              "request": {"method": "GET", "url": "https://api.example.com/v1/forecast?city=Oslo"},
              "response": {"status": 200, "headers": [["Content-Type", "application/json"]], "body": {"json": {"city": "Oslo", "c": 7}}}
            }
          ]
        }

        """

    func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(at: folder.file(path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try folder.write(path, text)
    }

    /// `swift ARGUMENTS` in the package, building in `.build-example`. The runner's environment is passed
    /// on whole (CI's TONEARM_WARNINGS_AS_ERRORS included, so the build is the one the demo script reuses).
    func swift(_ arguments: [String]) async throws -> ProcessRun {
        let scratch = packageRoot.appending(path: ".build-example").path
        // The scratch path is an option of the `swift build` and `swift package` commands, after their name.
        let command = [arguments[0], "--scratch-path", scratch] + arguments.dropFirst()
        return try await ProcessRun.run("/usr/bin/env", ["swift"] + command, currentDirectory: folder.url)
    }
}
