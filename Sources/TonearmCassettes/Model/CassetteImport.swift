import Tonearm

/// What an importer produced: tracks, rules for the requests a format describes by pattern, the
/// matching configuration the format implies, and every feature of the file that was not carried over.
public struct CassetteImport: Sendable {
    /// The recorded (or exactly-specified) exchanges.
    public var cassette: Cassette
    /// Pattern stubs (WireMock regex mappings, rule files), in the order they are tried at equal priority.
    public var rules: [Rule]
    /// Which parts of a request the source tool matched on: e.g. path instead of URL for WireMock,
    /// whose stubs have no host.
    public var configuration: MatchingConfiguration
    /// Features of the file that were not imported or not imported exactly, one per mapping/entry.
    public var warnings: [ImportWarning]

    /// Creates an import result.
    public init(
        cassette: Cassette, rules: [Rule] = [], configuration: MatchingConfiguration = .default,
        warnings: [ImportWarning] = []
    ) {
        self.cassette = cassette
        self.rules = rules
        self.configuration = configuration
        self.warnings = warnings
    }

    /// An engine answering from the tracks (under `strategy`) and then from the rules.
    public func makeEngine(strategy: Strategy? = nil) throws(RuleError) -> ReplayEngine {
        try ReplayEngine(
            tracks: cassette.tracks, rules: rules, strategy: strategy ?? cassette.strategy?.strategy ?? .repeat,
            configuration: configuration)
    }
}

/// Something in an imported file that Tonearm did not carry over exactly.
public struct ImportWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var file: String?
    /// Which entry, mapping or rule, e.g. `$.mappings[2]`.
    public var path: String
    /// What was not carried over and what was done instead.
    public var message: String

    /// Creates a warning.
    public init(file: String?, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    /// `file: at PATH: message`.
    public var description: String { "\(file ?? "<data>"): at \(path): \(message)" }
}
