import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes

/// `tonearm lint FILE`: validates a recording and reports shadowed tracks, dead rules and secrets.
///
/// `ServeChecks` says what `tonearm serve --root-dir` would refuse in a WireMock root folder: the server
/// module knows, and the `tonearm` executable links it; the cassette tool the SwiftPM plugin runs is
/// built without the server (and SwiftNIO), and says that it did not check.
package struct LintCommand<ServeChecks: WireMockRootServeChecks>: ParsableCommand {
    /// Generic types cannot hold a static stored property, so the configuration is computed.
    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "lint",
            abstract: "Validate a cassette or rule file: shadowed tracks, rules that never fire, unredacted secrets.",
            discussion: "Checks each file given in turn. Exits with status 1 when there are findings, 2 when a file does not load"
                + (ServeChecks.checksRefusals ? " (a WireMock root folder: when tonearm serve --root-dir would refuse a mapping in it, each listed)." : ".")
        )
    }

    package init() {}

    @Argument(help: "The cassettes, rule files or stub folders to check.") var files: [String] = []
    @Option(help: "Input format (detected when absent).") var from: String?
    @Option(help: "The replay strategy to check shadowing under: repeat, fifo, uniquePlay, strictOrder.") var strategy = "repeat"
    @Option(name: .customLong("redact-header"), help: "Another header that must be redacted (repeatable).") var redactHeaders: [String] = []
    @OptionGroup var matching: MatchingOptions
    @OptionGroup var defaultFolders: DefaultCassetteFolders

    package func validate() throws {
        _ = try defaultFolders.or(files)
    }

    /// Each file in turn; the exit status is the worst: 2 when one does not load, else 1 when one has findings.
    package func run() throws {
        var worst: Int32 = 0
        for file in try filesToCheck() { worst = max(worst, try lint(file)) }
        if worst != 0 { throw ExitCode(worst) }
    }

    /// The files given, or every cassette in the default folders (named relative to the current folder).
    private func filesToCheck() throws -> [String] {
        guard files.isEmpty else { return files }
        let base = FileManager.default.currentDirectoryPath
        let folders = try defaultFolders.or([]).map { URL(fileURLWithPath: $0) }
        do throws(CassetteError) {
            let found = try CassetteFolderScan.cassettes(under: folders, loadedFolders: [])
            if found.isEmpty { print("no cassettes in \(defaultFolders.folders.joined(separator: ", "))") }
            return found.map { CoverageReport.display($0, relativeTo: base) }
        } catch {
            CLIFormat.printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// Lints `file`, printing its findings and summary; its exit status.
    private func lint(_ file: String) throws -> Int32 {
        var imported: CassetteImport
        do {
            imported = try CassetteFile.load(URL(fileURLWithPath: file), format: try CLIFormat.parse(from, option: "--from"))
        } catch let error as CassetteError {
            CLIFormat.printError("error: \(error)")
            return 2
        }
        if imported.configuration == .default { imported.configuration = try matching.configuration() }
        let url = URL(fileURLWithPath: file)
        let isWireMockRoot = Self.isWireMockRoot(url)
        // The importer warns about response members it drops (`transformers`, `delayDistribution`, …),
        // which serve honours: for a folder serve loads, they are no finding.
        if isWireMockRoot { imported.warnings.removeAll(where: ServeChecks.isHonouredByServe) }
        let redaction = Redaction(
            headers: Redaction.defaultHeaders.union(redactHeaders), additionalJSONMediaTypes: imported.configuration.additionalJSONMediaTypes)
        let findings = CassetteLinter.lint(imported, strategy: try CLIFormat.strategy(strategy), redaction: redaction)
        for finding in findings { print(finding) }
        // A WireMock root folder is what `tonearm serve --root-dir` loads, refusing what the importer
        // only warns about (and what only the server checks: templates, transformers, proxies): lint
        // says so, each refusal, so a folder lint passes is one serve loads.
        let refusals = isWireMockRoot ? ServeChecks.refusals(inRoot: url) : []
        if isWireMockRoot, !ServeChecks.checksRefusals {
            CLIFormat.printError("note: what tonearm serve --root-dir would refuse in \(file) is not checked here; `tonearm lint` (the full executable) checks it")
        }
        for refusal in refusals { print("[serve-refuses] \(refusal)") }
        let summary = "\(file): \(imported.cassette.entries.count) track(s), \(imported.rules.count) rule(s), \(findings.count) finding(s)"
            + (refusals.isEmpty ? "" : ", \(refusals.count) mapping(s) tonearm serve --root-dir refuses")
        print(summary)
        if !refusals.isEmpty { return 2 }
        return findings.isEmpty ? 0 : 1
    }

    /// A folder holding a `mappings` folder, as `tonearm serve --root-dir` takes it.
    private static func isWireMockRoot(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("mappings").path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
