import Tonearm

/// A track (or rule) both cassettes have, answering differently: each part that differs is set, the
/// others are `nil` or empty.
public struct TrackChange: Sendable, Hashable {
    /// Which track or rule (its target as the new cassette has it).
    public var subject: DiffSubject
    /// Its index among the old file's tracks (rules, for a rule).
    public var oldPosition: Int
    /// Its index among the new file's tracks (rules, for a rule).
    public var newPosition: Int
    /// The status, when both answer with a response and the statuses differ.
    public var status: ValueChange<Int>?
    /// The simulated transport error, when one side answers with one and the other does not, or with
    /// another (`nil` stands for "answers with a response").
    public var transportError: ValueChange<TransportError?>?
    /// The response headers that differ, by name, ignored headers left out.
    public var headers: [HeaderChange]
    /// How the response body differs, when it does.
    public var body: BodyChange?
    /// The simulated latency, when it differs.
    public var delay: ValueChange<Duration?>?
    /// The scenario step of a track, when it differs.
    public var scenario: ValueChange<ScenarioStep?>?
    /// The priority of a rule, when it differs.
    public var priority: ValueChange<Int?>?

    /// Creates a change with nothing differing yet.
    public init(subject: DiffSubject, oldPosition: Int, newPosition: Int) {
        self.subject = subject
        self.oldPosition = oldPosition
        self.newPosition = newPosition
        headers = []
    }

    /// Whether nothing differs.
    public var isEmpty: Bool {
        status == nil && transportError == nil && headers.isEmpty && body == nil && delay == nil && scenario == nil
            && priority == nil
    }
}
