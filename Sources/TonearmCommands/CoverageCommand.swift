import ArgumentParser
import Foundation
import TonearmCassettes

/// `tonearm coverage --usage DIR CASSETTES...`: which recordings a test run never used.
package struct CoverageCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Report cassette files a test run never loaded, and tracks and rules it never replayed.",
        discussion: """
            Run the tests with TONEARM_USAGE_DIR=DIR (or tonearm serve --usage-dir DIR, or pytest --tonearm-usage DIR): \
            every cassette session, server and worker leaves a usage record there. This merges them and holds them \
            against the cassette folders. Exits with status 1 when --fail-on-unused is given and something went unused, \
            2 when a record or a loaded cassette does not read.
            """
    )

    package init() {}

    @Option(help: "The folder of usage records the test run left.") var usage: String
    @Argument(help: "Cassette folders (searched recursively) or files.") var cassettes: [String] = []
    @OptionGroup var defaultFolders: DefaultCassetteFolders
    @Option(help: "text or json.") var format = "text"
    @Flag(name: .customLong("fail-on-unused"), help: "Exit with status 1 when a file was never loaded or a track or rule never answered (a CI gate).")
    var failOnUnused = false

    package func validate() throws {
        guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json, not \(format)") }
        _ = try defaultFolders.or(cassettes)
    }

    package func run() throws {
        let report = try Self.report(usage: usage, cassettes: try defaultFolders.or(cassettes))
        if format == "json" {
            FileHandle.standardOutput.write(Data(report.json()))
        } else {
            print(report.text(relativeTo: FileManager.default.currentDirectoryPath), terminator: "")
        }
        if failOnUnused, report.hasUnused { throw ExitCode(1) }
    }

    /// The coverage of `cassettes` by the records in `usage`; a record or cassette that does not read
    /// is printed and exits with status 2.
    static func report(usage: String, cassettes: [String]) throws -> CoverageReport {
        do throws(CassetteError) {
            let run = try UsageRun.read(folder: URL(fileURLWithPath: usage, isDirectory: true))
            return try CoverageReport(run: run, cassettes: cassettes.map { URL(fileURLWithPath: $0) })
        } catch {
            CLIFormat.printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
