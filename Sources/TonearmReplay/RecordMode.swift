/// What a cassette session does with the network, in the spirit of swift-snapshot-testing's record modes.
///
/// Choose one in code (`record: .missing`), by test trait, or with the environment variable
/// `TONEARM_RECORD`, which overrides code so a developer can re-record without editing tests. When no
/// mode is given anywhere, the default is ``missing`` on a developer machine and ``never`` when the `CI`
/// variable is set, so CI can never silently record.
///
/// Modes may be added, so this is a struct with static members (as swift-snapshot-testing's
/// `SnapshotTestingConfiguration.Record` is) rather than an enum: compare with `==` and read ``rawValue``.
public struct RecordMode: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: String, Sendable, Hashable {
        case never, missing, all, passthrough
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// Replay only. A request the cassette cannot answer fails with a `URLError` carrying the miss
    /// report, and the test records an issue naming the cassette and the closest tracks.
    public static let never = RecordMode(.never)
    /// Requests the cassette answers are replayed; the others go to the network and are appended to the
    /// cassette, which is saved when the test ends. A recorded track answers later requests at once,
    /// counting as played once by the request that recorded it: under `repeat` and `fifo` an identical
    /// request replays it, under `uniquePlay` each identical request goes to the network and is
    /// recorded as another track, under `strictOrder` it is appended to the order already consumed.
    public static let missing = RecordMode(.missing)
    /// Every request goes to the network, and the cassette is rewritten from scratch when the test ends.
    public static let all = RecordMode(.all)
    /// Every request goes to the network and nothing is recorded; each exchange is logged.
    public static let passthrough = RecordMode(.passthrough)

    /// Every mode, in the order they are listed to users.
    public static let allCases: [RecordMode] = [.never, .missing, .all, .passthrough]

    /// The mode's name, as written in `TONEARM_RECORD`: `never`, `missing`, `all` or `passthrough`.
    public var rawValue: String { storage.rawValue }

    /// The mode named `rawValue` (lowercase), or `nil`.
    public init?(rawValue: String) {
        guard let storage = Storage(rawValue: rawValue) else { return nil }
        self.init(storage)
    }

    /// The environment variable that overrides the mode chosen in code.
    public static let environmentVariable = "TONEARM_RECORD"

    /// The mode in force: `TONEARM_RECORD` when set, else `requested`, else ``never`` under CI (`CI` set
    /// to anything but `false` or `0`) and ``missing`` elsewhere.
    ///
    /// - Throws: ``TonearmError/invalidRecordMode(_:)`` when `TONEARM_RECORD` names no mode, so a typo
    ///   never silently falls back to recording.
    public static func resolve(
        requested: RecordMode?, environment: [String: String]
    ) throws(TonearmError) -> RecordMode {
        if let raw = environment[environmentVariable], !raw.isEmpty {
            guard let mode = RecordMode(rawValue: raw.lowercased()) else { throw .invalidRecordMode(raw) }
            return mode
        }
        if let requested { return requested }
        return isCI(environment) ? .never : .missing
    }

    /// Whether the environment looks like CI: `CI` set to anything but an explicit "false" or "0".
    package static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"] else { return false }
        return !["false", "0"].contains(value.lowercased())
    }

    /// Whether requests the cassette cannot answer go to the network.
    package var reachesNetworkOnMiss: Bool { self != .never }

    /// Whether the cassette is consulted at all.
    package var replays: Bool { self == .never || self == .missing }

    /// Whether a request can miss (and fail with the report) rather than reach the network.
    package var canMiss: Bool { replays && !reachesNetworkOnMiss }

    /// Whether network exchanges are written to the cassette.
    package var records: Bool { self == .missing || self == .all }

    /// The raw value, as written in `TONEARM_RECORD`.
    public var description: String { rawValue }
}
