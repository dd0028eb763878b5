import ArgumentParser
import TonearmCommands

/// The `tonearm` command.
@main
struct TonearmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tonearm",
        abstract: "HTTP record/replay with a fast, explainable request matcher.",
        version: tonearmVersion,
        subcommands: [
            KeyCommand.self, DemoCommand.self, ConvertCommand.self, LintCommand<ServerRootChecks>.self, DiffCommand.self, CoverageCommand.self,
            PruneCommand.self, ExplainCommand.self, BenchCommand.self, ServeCommand.self, CACommand.self,
        ]
    )
}
