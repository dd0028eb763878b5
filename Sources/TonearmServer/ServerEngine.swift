import Synchronization
import Tonearm

/// The engine behind one loaded cassette: its tracks and rule files, the tracks recorded since it was
/// loaded, and stubs added at runtime, consulted in that order.
///
/// This is the one place that knows how the core engine is extended while it serves, so when
/// `ReplayEngine` gains live `add` and `remove`, only this file changes.
final class ServerEngine: Sendable {
    /// The cassette's tracks (under its strategy) and the rule files.
    let engine: ReplayEngine
    /// Whether a track recorded in `missing` mode answers later identical requests: strategies that
    /// repeat (`repeat`, `fifo`) do, while `uniquePlay` and `strictOrder` count it as already played.
    private let recordedTracksReplay: Bool
    private let state = Mutex(State())

    private struct State {
        /// Tracks recorded since loading, first per key (they count as played once).
        var recorded: [RequestKey: Track] = [:]
        /// Stubs added at runtime, with the engine answering from them.
        var stubs: [Rule] = []
        var stubEngine: ReplayEngine?
    }

    /// What answered, for the journal and the `Tonearm-Source` response header.
    enum Source: Sendable, Hashable {
        case track(position: Int)
        case rule(name: String)
        case recorded
        case stub(name: String)

        var description: String {
            switch self {
            case .track(let position): "track #\(position + 1)"
            case .rule(let name): "rule \(name)"
            case .recorded: "recorded track"
            case .stub(let name): "stub \(name)"
            }
        }
    }

    /// An answer or the miss report of the cassette's engine.
    enum Answer: Sendable {
        case hit(Track, Source)
        case miss(MissReport)
    }

    init(tracks: [Track], rules: [Rule], strategy: Strategy, repeatsRecorded: Bool, configuration: MatchingConfiguration) throws(RuleError) {
        let combined: Strategy = rules.isEmpty ? strategy : .chain(strategy, .rules(try RuleSet(rules)))
        engine = ReplayEngine(tracks: tracks, strategy: combined, configuration: configuration)
        recordedTracksReplay = repeatsRecorded
    }

    /// The answer for `request` (already redacted).
    func match(_ request: Request) -> Answer {
        let report: MissReport
        switch engine.match(request) {
        case .hit(let hit):
            switch hit.source {
            case .track(let position): return .hit(hit.track, .track(position: position))
            case .rule(let name, _): return .hit(hit.track, .rule(name: name))
            case .custom(let name): return .hit(hit.track, .rule(name: name))
            }
        case .miss(let missReport):
            report = missReport
        }
        let (recorded, stubEngine) = state.withLock { state in
            (state.recorded.isEmpty ? nil : state.recorded[report.key], state.stubEngine)
        }
        if let recorded { return .hit(recorded, .recorded) }
        if let stubEngine, case .hit(let hit) = stubEngine.match(request) {
            if case .rule(let name, _) = hit.source { return .hit(hit.track, .stub(name: name)) }
            return .hit(hit.track, .stub(name: "stub"))
        }
        return .miss(report)
    }

    /// Notes a track just recorded from the network, so later identical requests can be answered by it.
    func noteRecorded(_ track: Track) {
        guard recordedTracksReplay else { return }
        let key = engine.incomingRequest(for: track.request).key
        state.withLock { state in
            if state.recorded[key] == nil { state.recorded[key] = track }
        }
    }

    /// Adds stubs that answer after everything else; all or none are added.
    func addStubs(_ rules: [Rule]) throws(RuleError) {
        let configuration = engine.canonicalizer.configuration
        let result: Result<Void, RuleError> = state.withLock { state in
            let combined = state.stubs + rules
            do throws(RuleError) {
                let ruleSet = try RuleSet(combined)
                state.stubEngine = ReplayEngine(tracks: [], strategy: .rules(ruleSet), configuration: configuration)
                state.stubs = combined
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// The stubs added at runtime, oldest first.
    var stubs: [Rule] { state.withLock { $0.stubs } }

    /// Rewinds every strategy: all tracks playable again, strict order at its start.
    func reset() {
        engine.reset()
    }
}
