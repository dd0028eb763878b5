import ArgumentParser
import Foundation
import TonearmCassettes

/// `tonearm prune --usage DIR CASSETTES... [--write]`: removes what a test run never used.
package struct PruneCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove the tracks and rules a test run never replayed from the cassettes it loaded.",
        discussion: """
            A dry run unless --write is given: it prints what would change. Each file keeps its format, layout and the \
            order of what stays; every edit is read back and checked before any file is written, and each file is \
            replaced atomically. Files the run never loaded are left alone unless --delete-unloaded is given. \
            Exits with status 2, changing nothing, when a record or a cassette does not read.
            """
    )

    package init() {}

    @Option(help: "The folder of usage records the test run left.") var usage: String
    @Argument(help: "Cassette folders (searched recursively) or files.") var cassettes: [String] = []
    @OptionGroup var defaultFolders: DefaultCassetteFolders
    @Flag(help: "Change the files (without it, only print what would change).") var write = false
    @Flag(name: .customLong("delete-unloaded"), help: "Also delete cassette files the run never loaded.") var deleteUnloaded = false

    package func validate() throws {
        _ = try defaultFolders.or(cassettes)
    }

    package func run() throws {
        let report = try CoverageCommand.report(usage: usage, cassettes: try defaultFolders.or(cassettes))
        let plan: PrunePlan
        do throws(CassetteError) {
            plan = try PrunePlan(report: report, deletingUnloadedFiles: deleteUnloaded)
        } catch {
            CLIFormat.printError("error: \(error)")
            throw ExitCode(2)
        }
        let base = FileManager.default.currentDirectoryPath
        let verb = write ? "" : "would "
        for change in plan.changes {
            let name = CoverageReport.display(change.path, relativeTo: base)
            if change.deletesFile {
                print("\(name): \(verb)delete (never loaded)")
            } else {
                var parts: [String] = []
                if !change.removedTracks.isEmpty { parts.append("track(s) " + change.removedTracks.map { "#\($0)" }.joined(separator: ", ")) }
                if !change.removedRules.isEmpty { parts.append("rule(s) " + change.removedRules.map { "#\($0)" }.joined(separator: ", ")) }
                print("\(name): \(verb)remove " + parts.joined(separator: " and "))
            }
        }
        for (path, reason) in plan.skipped { print("\(CoverageReport.display(path, relativeTo: base)): left alone: \(reason)") }
        if plan.changes.isEmpty { print("nothing to prune") }
        guard write else {
            if !plan.changes.isEmpty { print("(dry run: give --write to change the files)") }
            return
        }
        do throws(CassetteError) {
            try plan.apply()
        } catch {
            CLIFormat.printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
