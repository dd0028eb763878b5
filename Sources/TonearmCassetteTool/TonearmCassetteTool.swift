import ArgumentParser
import TonearmCommands

/// The cassette subcommands of `tonearm`, and only those, for the SwiftPM plugin (`swift package tonearm`):
/// the same command code as the `tonearm` executable without the server, so a package running the plugin
/// builds the core, the cassette formats and ArgumentParser, not SwiftNIO, TLS and the HTTP client.
@main
struct TonearmCassetteTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        // Named as the executable is, so usage lines and errors read as the docs' `tonearm lint …`.
        commandName: "tonearm",
        abstract: "Check, explain, convert and prune the cassettes of a package (the cassette subcommands of tonearm).",
        subcommands: [
            LintCommand<NoServeChecks>.self, ExplainCommand.self, KeyCommand.self, ConvertCommand.self, CoverageCommand.self,
            PruneCommand.self, DiffCommand.self,
        ]
    )
}
