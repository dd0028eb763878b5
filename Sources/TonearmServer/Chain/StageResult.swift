import Tonearm

/// What a ``ResponderStage`` makes of a request: an answer, a miss for the chain to collect, or nothing.
///
/// Stages tell the chain what they found, never each other: a miss is not left in the request for a
/// later stage to know about, it is returned, and the ``ResponderChain`` turns the misses it collected
/// into the one miss reply when no stage answers.
package enum StageResult: Sendable {
    /// The stage answers: the chain stops here.
    case answered(Staged<StageAnswer>)
    /// The request was the stage's to look up, and nothing it holds answers it: the chain goes on,
    /// keeping the miss for the reply in case no later stage answers.
    indirect case missed(StageMiss)
    /// The request is not the stage's.
    case passed
}
