/// How often each track and each rule of an engine has answered, counted as requests are matched.
///
/// What stale-recording reports (`tonearm coverage`) and pages showing a cassette need: a track that
/// never answered during a whole test run is one nothing needs. Counting costs one relaxed atomic
/// increment per hit and no lock; the counts are read only when someone asks for ``ReplayEngine/usage()``.
///
/// Counters are 32 bits and wrap after 4,294,967,295 answers from one track, far beyond any test run.
final class PlayCounts: Sendable {
    private let tracks = AtomicSlots()
    private let rules = AtomicSlots()

    /// Counts one answer from `source`.
    @inline(__always)
    func count(_ source: Hit.Source) {
        switch source {
        case .track(let position): tracks.relaxedIncrement(position)
        case .rule(_, let position): rules.relaxedIncrement(position)
        case .custom: break
        }
    }

    /// The counts of the first `count` track positions.
    func trackPlays(count: Int) -> [Int] {
        (0..<count).map { UInt32(truncatingIfNeeded: tracks.relaxedLoad($0)) }.map(Int.init)
    }

    /// The counts of the first `count` rule positions.
    func rulePlays(count: Int) -> [Int] {
        (0..<count).map { UInt32(truncatingIfNeeded: rules.relaxedLoad($0)) }.map(Int.init)
    }
}
