import ArgumentParser

/// Where `lint`, `coverage` and `prune` look when given no cassette: the SwiftPM plugin passes its
/// package's test targets' `__Cassettes__` folders, so `swift package tonearm lint` needs no path.
/// Hidden from help: a person names the cassettes.
struct DefaultCassetteFolders: ParsableArguments {
    @Option(
        name: .customLong("default-cassettes"),
        help: ArgumentHelp("A folder to search when no cassette is named (repeatable; the SwiftPM plugin's).", visibility: .hidden))
    var folders: [String] = []

    /// `given` when it names anything, else the default folders; a validation error when both are empty.
    func or(_ given: [String]) throws -> [String] {
        if !given.isEmpty { return given }
        guard !folders.isEmpty else { throw ValidationError("give at least one cassette folder or file") }
        return folders
    }
}
