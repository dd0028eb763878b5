/// Why a strategy had no answer: the first line of a miss report.
public enum MissReason: Sendable, Hashable, CustomStringConvertible {
    /// No track was ever recorded with this request's key.
    case notRecorded
    /// Tracks were recorded for this key, and every one has already played.
    case exhausted(trackCount: Int)
    /// Strict order expected the track at `expectedPosition` next, and this request is not it.
    case outOfOrder(expectedPosition: Int)
    /// Strict order has played every one of its `trackCount` tracks.
    case sequenceFinished(trackCount: Int)
    /// No regex rule matched; `rulesTried` of `ruleCount` survived the method and prefix filters.
    case noRuleMatched(ruleCount: Int, rulesTried: Int)
    /// Every stage of a chain missed, each for its own reason.
    case everyStageMissed([MissReason])
    /// A custom strategy's own explanation.
    case custom(String)

    /// One line of explanation.
    public var description: String {
        switch self {
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
        case .custom(let message):
            message
        }
    }
}
