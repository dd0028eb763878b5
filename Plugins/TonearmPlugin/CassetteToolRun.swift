import Foundation
import PackagePlugin

/// One run of the cassette tool for `swift package tonearm …` or `swift package tonearm-write …`: the
/// same for both verbs (this file is linked into the write plugin's folder: plugins cannot share a
/// library), which differ only in whether SwiftPM granted them the package directory to write.
///
/// The tool runs in the package directory, so paths given are the package's; `lint`, `coverage` and
/// `prune` given no cassette get the package's test targets' `__Cassettes__` folders. Its output and
/// its exit status are the command's.
struct CassetteToolRun {
    /// Why a run was refused before the tool started.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The subcommands that take cassette folders when no cassette is named.
    static let takesDefaultFolders: Set<String> = ["lint", "coverage", "prune"]

    let tool: URL
    let packageDirectory: URL
    /// The tool's arguments: the subcommand first.
    let arguments: [String]

    /// `arguments` as SwiftPM passes them: Xcode adds `--target NAME` for the targets picked in its
    /// dialog (which narrow the default folders to theirs), and runs the plugin with no subcommand, which
    /// means `lint`.
    init(context: PluginContext, arguments given: [String], mayWrite: Bool) throws {
        tool = try context.tool(named: "TonearmCassetteTool").url
        packageDirectory = context.package.directoryURL
        var extractor = ArgumentExtractor(given)
        let targetNames = Set(extractor.extractOption(named: "target"))
        var arguments = extractor.remainingArguments
        if arguments.isEmpty { arguments = ["lint"] }
        if !mayWrite, Self.writes(arguments) {
            throw Refusal(description: """
                `\(arguments[0])\(arguments[0] == "prune" ? " --write" : "")` changes files in the package: run it as \
                `swift package tonearm-write \(arguments.joined(separator: " "))`, which asks for permission to write to the \
                package directory (or give --allow-writing-to-package-directory to swift package).
                """)
        }
        if Self.takesDefaultFolders.contains(arguments[0]) {
            let folders = Self.cassetteFolders(of: context.package, targets: targetNames, relativeTo: packageDirectory)
            arguments.insert(contentsOf: folders.flatMap { ["--default-cassettes", $0] }, at: 1)
        }
        self.arguments = arguments
    }

    /// Whether the subcommand writes into the package: `convert` its output, `prune --write` the cassettes.
    static func writes(_ arguments: [String]) -> Bool {
        if arguments.contains(where: { ["--help", "-h", "help"].contains($0) }) { return false }
        switch arguments.first {
        case "convert": return true
        case "prune": return arguments.contains("--write")
        default: return false
        }
    }

    /// The `__Cassettes__` folders of the package's test targets (of `targets` when any are named), as
    /// paths relative to the package directory, where the cassette traits record.
    static func cassetteFolders(of package: Package, targets: Set<String>, relativeTo base: URL) -> [String] {
        package.targets.compactMap { target -> String? in
            guard let module = target as? SourceModuleTarget, module.kind == .test,
                  targets.isEmpty || targets.contains(target.name) else { return nil }
            let folder = module.directoryURL.appending(path: "__Cassettes__")
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            let path = folder.standardizedFileURL.path, prefix = base.standardizedFileURL.path + "/"
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        }.sorted()
    }

    /// Runs the tool and exits with its status when that is not 0, so that `swift package tonearm lint`
    /// fails as `tonearm lint` does (its messages are already printed).
    func run() throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = packageDirectory
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            throw Refusal(description: "tonearm \(arguments.first ?? "") ended by signal \(process.terminationStatus)")
        }
        if process.terminationStatus != 0 { exit(process.terminationStatus) }
    }
}
