import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes
import TonearmServer

/// `tonearm lint FILE`: validates a recording and reports shadowed tracks, dead rules and secrets.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Validate a cassette or rule file: shadowed tracks, rules that never fire, unredacted secrets.",
        discussion: "Exits with status 1 when there are findings, 2 when the file does not load (a WireMock root folder: when tonearm serve --root-dir would refuse a mapping in it, each listed)."
    )

    @Argument(help: "The cassette, rule file or stub folder to check.") var file: String
    @Option(help: "Input format (detected when absent).") var from: String?
    @Option(help: "The replay strategy to check shadowing under: repeat, fifo, uniquePlay, strictOrder.") var strategy = "repeat"
    @Option(name: .customLong("redact-header"), help: "Another header that must be redacted (repeatable).") var redactHeaders: [String] = []
    @OptionGroup var matching: MatchingOptions

    func run() throws {
        var imported: CassetteImport
        do {
            imported = try CassetteFile.load(URL(fileURLWithPath: file), format: try CLIFormat.parse(from, option: "--from"))
        } catch let error as CassetteError {
            CLIFormat.printError("error: \(error)")
            throw ExitCode(2)
        }
        if imported.configuration == .default { imported.configuration = try matching.configuration() }
        let url = URL(fileURLWithPath: file)
        let isWireMockRoot = Self.isWireMockRoot(url)
        // The importer warns about response members it drops (`transformers`, `delayDistribution`, …),
        // which serve honours: for a folder serve loads, they are no finding.
        if isWireMockRoot { imported.warnings.removeAll(where: WireMockRootDirectory.isHonouredByServe) }
        let redaction = Redaction(
            headers: Redaction.defaultHeaders.union(redactHeaders), additionalJSONMediaTypes: imported.configuration.additionalJSONMediaTypes)
        let findings = CassetteLinter.lint(imported, strategy: try CLIFormat.strategy(strategy), redaction: redaction)
        for finding in findings { print(finding) }
        // A WireMock root folder is what `tonearm serve --root-dir` loads, refusing what the importer
        // only warns about (and what only the server checks: templates, transformers, proxies): lint
        // says so, each refusal, so a folder lint passes is one serve loads.
        let refusals = isWireMockRoot ? WireMockRootDirectory.refusals(inRoot: url) : []
        for refusal in refusals { print("[serve-refuses] \(refusal)") }
        let summary = "\(file): \(imported.cassette.entries.count) track(s), \(imported.rules.count) rule(s), \(findings.count) finding(s)"
            + (refusals.isEmpty ? "" : ", \(refusals.count) mapping(s) tonearm serve --root-dir refuses")
        print(summary)
        if !refusals.isEmpty { throw ExitCode(2) }
        if !findings.isEmpty { throw ExitCode(1) }
    }

    /// A folder holding a `mappings` folder, as `tonearm serve --root-dir` takes it.
    private static func isWireMockRoot(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("mappings").path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
