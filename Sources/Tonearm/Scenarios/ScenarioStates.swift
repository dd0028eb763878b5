import Synchronization

/// The current state of every scenario of one engine, and the one place a stub's required state is
/// checked and its new state set.
///
/// One `Mutex` serialises every check-and-move, so concurrent requests walking a scenario see a legal
/// sequence of states and no move is lost (WireMock checks and moves in two steps, wiremock#456). Only
/// requests that reach a stub with a scenario take it: plain tracks never look here.
final class ScenarioStates: Sendable {
    /// Scenario name to current state; a scenario missing here is in ``ScenarioStep/startedState``.
    private let states = Mutex<[String: String]>([:])
    /// Whether any track with a scenario was ever added: until then the engine skips the scenario-track
    /// stage on a miss.
    private let tracksHaveScenarios = Atomic<Bool>(false)
    /// The positions of the tracks with a scenario (removed ones too), in the order added, so listing
    /// scenarios never scans every track.
    private let scenarioTrackPositions = Mutex<[Int]>([])

    /// Records that the track at `position`, which has a scenario, was added.
    func noteScenarioTrack(at position: Int) {
        scenarioTrackPositions.withLock { $0.append(position) }
        tracksHaveScenarios.store(true, ordering: .releasing)
    }

    /// The positions of the tracks with a scenario ever added, in order.
    var trackPositions: [Int] { scenarioTrackPositions.withLock { $0 } }

    /// Whether any track with a scenario was ever added.
    var hasScenarioTracks: Bool { tracksHaveScenarios.load(ordering: .acquiring) }

    /// Which of several stubs answers: the first, in order, whose scenario is in its required state (a
    /// stub without a scenario always may), its scenario moved on; or, when none may, why each waits.
    /// One atomic step over all of them: deciding stub by stub would let a request see a different
    /// state at each stub and miss although one of them could answer at every moment.
    ///
    /// - Parameter stub: names the `n`th stub in a mismatch (only called for those); `nil` when the
    ///   caller has no use for mismatches.
    func takeFirst(_ steps: [ScenarioStep?], stub: ((Int) -> String)?) -> ScenarioChoice {
        states.withLock { states in
            var mismatches: [ScenarioMismatch] = []
            for (offset, step) in steps.enumerated() {
                guard let step else { return .chosen(offset) }
                let current = states[step.name] ?? ScenarioStep.startedState
                if let required = step.requiredState, required != current {
                    if let stub {
                        mismatches.append(ScenarioMismatch(
                            scenario: step.name, currentState: current, requiredState: required, stub: stub(offset)))
                    }
                    continue
                }
                if let next = step.newState { states[step.name] = next }
                return .chosen(offset)
            }
            return .noneMay(mismatches)
        }
    }

    /// The state `scenario` is in.
    func state(of scenario: String) -> String {
        states.withLock { $0[scenario] ?? ScenarioStep.startedState }
    }

    /// Puts `scenario` in `state`.
    func set(_ scenario: String, to state: String) {
        states.withLock { $0[scenario] = state == ScenarioStep.startedState ? nil : state }
    }

    /// Puts `scenario` back in ``ScenarioStep/startedState``.
    func reset(_ scenario: String) {
        _ = states.withLock { $0.removeValue(forKey: scenario) }
    }

    /// Puts every scenario back in ``ScenarioStep/startedState``.
    func resetAll() {
        states.withLock { $0.removeAll() }
    }
}

/// What ``ScenarioStates/takeFirst(_:stub:)`` decided.
enum ScenarioChoice {
    /// The stub at this offset answers; its scenario has moved on.
    case chosen(Int)
    /// Every stub waits for its scenario to be in another state.
    case noneMay([ScenarioMismatch])
}
