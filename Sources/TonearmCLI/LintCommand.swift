import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes

/// `tonearm lint FILE`: validates a recording and reports shadowed tracks, dead rules and secrets.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Validate a cassette or rule file: shadowed tracks, rules that never fire, unredacted secrets.",
        discussion: "Exits with status 1 when there are findings, 2 when the file does not load."
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
        let redaction = Redaction(
            headers: Redaction.defaultHeaders.union(redactHeaders), additionalJSONMediaTypes: imported.configuration.additionalJSONMediaTypes)
        let findings = CassetteLinter.lint(imported, strategy: try CLIFormat.strategy(strategy), redaction: redaction)
        for finding in findings { print(finding) }
        let summary = "\(file): \(imported.cassette.entries.count) track(s), \(imported.rules.count) rule(s), \(findings.count) finding(s)"
        print(summary)
        if !findings.isEmpty { throw ExitCode(1) }
    }
}
