import Tonearm

/// What a ``ResponderStage`` makes of a request: an answer, a miss for the chain to collect, or nothing.
///
/// Stages tell the chain what they found, never each other: a miss is not left in the request for a
/// later stage to know about, it is returned, and the ``ResponderChain`` turns the misses it collected
/// into the one miss reply when no stage answers.
enum StageResult: Sendable {
    /// The stage answers: the chain stops here.
    case answered(Staged<StageAnswer>)
    /// The request was the stage's to look up, and nothing it holds answers it: the chain goes on,
    /// keeping the miss for the reply in case no later stage answers.
    indirect case missed(StageMiss)
    /// The request is not the stage's.
    case passed
}

/// Where a stage looked for a request's answer and did not find it.
struct StageMiss: Sendable {
    /// Why nothing answered, with the nearest tracks, rules or mappings and how each differs.
    let report: MissReport
    /// What the stage looked in, as the miss reply names it ("the stub mappings", "cassette /tmp/a.json").
    let lookedIn: String
    /// The request as the stage looked it up (with the upstream URL it stands for), as the journal keeps it.
    let request: Request
}
