import PackagePlugin

/// `swift package tonearm SUBCOMMAND …`: the cassette subcommands that only read (lint, explain, key,
/// coverage, diff, prune's dry run), declared without permissions so that SwiftPM and Xcode never ask.
@main
struct TonearmPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try CassetteToolRun(context: context, arguments: arguments, mayWrite: false).run()
    }
}
