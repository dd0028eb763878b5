import Tonearm

/// A request the session could not answer in ``RecordMode/never`` mode, with the engine's explanation.
public struct SessionMiss: Sendable, CustomStringConvertible {
    /// What the session replays from, e.g. the cassette's path.
    public var source: String
    /// The request that missed, as sent.
    public var request: Request
    /// The strategy's reason and the closest recorded tracks, field by field.
    public var report: MissReport
    /// The command that records the missing answer into the cassette, e.g.
    /// `TONEARM_RECORD=missing swift test --filter SignInTests/signIn`, when the session replays a
    /// cassette for a known test.
    public var howToRecord: String?

    /// A message naming the cassette, the request and the closest tracks, then how to record the answer:
    /// what a failing test prints.
    public var description: String {
        let message = "Tonearm: \(source) has no answer for \(request.method) \(request.url) (record mode: never)\n\(report)"
        guard let howToRecord else { return message }
        return message + (message.hasSuffix("\n") ? "" : "\n") + "To record it: \(howToRecord)"
    }
}
