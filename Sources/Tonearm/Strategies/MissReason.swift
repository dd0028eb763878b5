/// Why a strategy had no answer: the first line of a miss report.
///
/// New strategies bring new reasons, so this is a struct with static members rather than an enum: build
/// one as you would an enum case (`.notRecorded`, `.exhausted(trackCount: 3)`), compare with `==`, and
/// read it through ``identifier`` (a stable token, e.g. for a response header), ``name`` and the typed
/// accessors instead of a `switch`.
public struct MissReason: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: Sendable, Hashable {
        case notRecorded
        case exhausted(trackCount: Int)
        case outOfOrder(expectedPosition: Int)
        case sequenceFinished(trackCount: Int)
        case noRuleMatched(ruleCount: Int, rulesTried: Int)
        case everyStageMissed([MissReason])
        case scenarioStateMismatch([ScenarioMismatch])
        case custom(String)
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// No track was ever recorded with this request's key.
    public static let notRecorded = MissReason(.notRecorded)

    /// Tracks were recorded for this key, and every one has already played.
    public static func exhausted(trackCount: Int) -> MissReason {
        MissReason(.exhausted(trackCount: trackCount))
    }

    /// Strict order expected the track at `expectedPosition` next, and this request is not it.
    public static func outOfOrder(expectedPosition: Int) -> MissReason {
        MissReason(.outOfOrder(expectedPosition: expectedPosition))
    }

    /// Strict order has played every one of its `trackCount` tracks.
    public static func sequenceFinished(trackCount: Int) -> MissReason {
        MissReason(.sequenceFinished(trackCount: trackCount))
    }

    /// No regex rule matched; `rulesTried` of `ruleCount` survived the method and prefix filters.
    public static func noRuleMatched(ruleCount: Int, rulesTried: Int) -> MissReason {
        MissReason(.noRuleMatched(ruleCount: ruleCount, rulesTried: rulesTried))
    }

    /// Every stage of a chain missed, each for its own reason.
    public static func everyStageMissed(_ stages: [MissReason]) -> MissReason {
        MissReason(.everyStageMissed(stages))
    }

    /// Stubs matched the request, but each waits for its scenario to be in another state.
    public static func scenarioStateMismatch(_ mismatches: [ScenarioMismatch]) -> MissReason {
        MissReason(.scenarioStateMismatch(mismatches))
    }

    /// A custom strategy's own explanation.
    public static func custom(_ message: String) -> MissReason {
        MissReason(.custom(message))
    }

    /// A short stable name for the kind of miss, the same words that open ``description``: "never
    /// recorded", "exhausted", "out of order", "sequence finished", "no rule matched", "every stage
    /// missed", "scenario state", or "custom". Suitable for a response header or a metric label.
    public var name: String {
        switch storage {
        case .notRecorded: "never recorded"
        case .exhausted: "exhausted"
        case .outOfOrder: "out of order"
        case .sequenceFinished: "sequence finished"
        case .noRuleMatched: "no rule matched"
        case .everyStageMissed: "every stage missed"
        case .scenarioStateMismatch: "scenario state"
        case .custom: "custom"
        }
    }

    /// A stable token for the kind of miss, for machines (a `Tonearm-Miss` response header, a log
    /// field): `not-recorded`, `exhausted`, `out-of-order`, `sequence-finished`, `no-rule-matched`,
    /// `every-stage-missed`, `scenario-state` or `custom`.
    public var identifier: String {
        switch storage {
        case .notRecorded: "not-recorded"
        case .exhausted: "exhausted"
        case .outOfOrder: "out-of-order"
        case .sequenceFinished: "sequence-finished"
        case .noRuleMatched: "no-rule-matched"
        case .everyStageMissed: "every-stage-missed"
        case .scenarioStateMismatch: "scenario-state"
        case .custom: "custom"
        }
    }

    /// How many tracks were recorded for the key (``exhausted(trackCount:)``) or in the whole sequence
    /// (``sequenceFinished(trackCount:)``); `nil` for other reasons.
    public var trackCount: Int? {
        switch storage {
        case .exhausted(let count), .sequenceFinished(let count): count
        default: nil
        }
    }

    /// The position strict order expected next (``outOfOrder(expectedPosition:)``); `nil` otherwise.
    public var expectedPosition: Int? {
        if case .outOfOrder(let position) = storage { return position }
        return nil
    }

    /// How many rules there were (``noRuleMatched(ruleCount:rulesTried:)``); `nil` otherwise.
    public var ruleCount: Int? {
        if case .noRuleMatched(let count, _) = storage { return count }
        return nil
    }

    /// How many rules passed the method and prefix filters and were tried
    /// (``noRuleMatched(ruleCount:rulesTried:)``); `nil` otherwise.
    public var rulesTried: Int? {
        if case .noRuleMatched(_, let tried) = storage { return tried }
        return nil
    }

    /// Each chain stage's own reason, in order (``everyStageMissed(_:)``); `nil` otherwise.
    public var stages: [MissReason]? {
        if case .everyStageMissed(let stages) = storage { return stages }
        return nil
    }

    /// The stubs that matched but wait for another scenario state (``scenarioStateMismatch(_:)``); `nil`
    /// otherwise.
    public var scenarioMismatches: [ScenarioMismatch]? {
        if case .scenarioStateMismatch(let mismatches) = storage { return mismatches }
        return nil
    }

    /// A custom strategy's message (``custom(_:)``); `nil` otherwise.
    public var customMessage: String? {
        if case .custom(let message) = storage { return message }
        return nil
    }

    /// One line of explanation.
    public var description: String {
        switch storage {
        case .notRecorded:
            "never recorded: no track has this request's key"
        case .exhausted(let count):
            "exhausted: \(count) track\(count == 1 ? "" : "s") recorded for this request, all already played"
        case .outOfOrder(let position):
            "out of order: strict order expected track #\(position) next"
        case .sequenceFinished(let count):
            "sequence finished: all \(count) tracks have played in order"
        case .noRuleMatched(let ruleCount, let tried):
            "no rule matched: \(tried) of \(ruleCount) rules passed the method and prefix filters, none matched"
        case .everyStageMissed(let reasons):
            "every stage missed: "
                + reasons.enumerated().map { "stage \($0.offset + 1): \($0.element)" }.joined(separator: "; ")
        case .scenarioStateMismatch(let mismatches):
            "scenario state: " + mismatches.map(\.description).joined(separator: "; ")
        case .custom(let message):
            message
        }
    }
}
