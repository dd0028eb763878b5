import Foundation
import Testing
import TonearmTestSupport

/// `tonearm SUBCOMMAND --help` reads as paragraphs: ArgumentParser wraps text to the terminal itself, so a
/// line break written into a help text shows as a line cut mid-sentence at any width. Each subcommand's
/// overview is printed with a width no line reaches (COLUMNS), where every line break left is one the
/// source wrote, and each must end a sentence, start a paragraph, or set off an indented example or a list.
@Suite("Help texts")
struct HelpTextTests {
    @Test("every subcommand's overview has no line broken mid-sentence")
    func noHardWraps() async throws {
        let url = try #require(TonearmExecutable.url, TonearmExecutable.missingMessage)
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "100000"
        let root = try await ProcessRun.run(url.path, ["--help"], environment: environment)
        let subcommands = Self.subcommands(inHelp: root.output)
        #expect(subcommands.count >= 11, "\(root.output)")
        for name in [nil] + subcommands.map(Optional.some) {
            let help = try await ProcessRun.run(url.path, (name.map { [$0] } ?? []) + ["--help"], environment: environment)
            #expect(help.status == 0, "\(name ?? "tonearm"): \(help.errors)")
            #expect(Self.linesBrokenMidSentence(inOverviewOf: help.output).isEmpty, "tonearm \(name ?? "") --help:\n\(help.output)")
        }
    }

    @Test("the check finds a broken sentence and passes paragraphs, examples and lists")
    func theCheck() {
        let broken = "OVERVIEW: Converts.\n\nFormats come from the file names, and a .json file\nby its content.\n\nUSAGE: x\n"
        #expect(Self.linesBrokenMidSentence(inOverviewOf: broken) == ["Formats come from the file names, and a .json file"])
        let fine = "OVERVIEW: Keys.\n\nGive the request as JSON:\n  {\"method\": \"GET\"}\n\"headers\" may be pairs.\nExits 1.\n- a list item\n\nUSAGE: x\n"
        #expect(Self.linesBrokenMidSentence(inOverviewOf: fine).isEmpty)
    }

    /// The names under SUBCOMMANDS in the root's help.
    static func subcommands(inHelp help: String) -> [String] {
        guard let section = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[section.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }.compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }

    /// The lines of the help's overview (up to USAGE) that are followed by more of the same paragraph
    /// without ending a sentence. An indented line (an example) or a list item may follow any line.
    static func linesBrokenMidSentence(inOverviewOf help: String) -> [String] {
        let overview = help.components(separatedBy: "\nUSAGE:")[0]
        let lines = overview.split(separator: "\n", omittingEmptySubsequences: false)
        var broken: [String] = []
        for (line, next) in zip(lines, lines.dropFirst()) {
            guard !line.isEmpty, !next.isEmpty, !line.hasPrefix(" "), !next.hasPrefix(" "), !next.hasPrefix("- ") else { continue }
            if let last = line.last, ".:!?".contains(last) { continue }
            broken.append(String(line))
        }
        return broken
    }
}
