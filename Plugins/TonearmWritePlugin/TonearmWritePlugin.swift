import PackagePlugin

/// `swift package tonearm-write SUBCOMMAND …`: the cassette subcommands that write (convert, prune
/// --write), declared with permission to write to the package directory, which SwiftPM and Xcode ask for.
@main
struct TonearmWritePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try CassetteToolRun(context: context, arguments: arguments, mayWrite: true).run()
    }
}
