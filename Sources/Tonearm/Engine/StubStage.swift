/// What an engine tries once its strategy has no answer: the request's tracks with a scenario (which
/// every strategy steps over), in the order added, then its rules, by priority and declared order.
///
/// A stub with a scenario may answer only while its scenario is in its required state. Which stub
/// answers is decided over all of the request's candidates in one atomic step of the scenario states
/// (``ScenarioStates/takeFirst(_:stub:)``), so a request can never miss because the state moved while
/// it looked from one stub to the next. Stubs answer any number of times, as in WireMock.
enum StubStage {
    /// The first candidate allowed to answer, or why none is, given why the strategy missed.
    static func match(
        _ request: IncomingRequest, strategyReason: MissReason, index: TrackIndex, rules: LiveRules
    ) -> StrategyOutcome {
        let states = index.scenarioStates
        let tracks = states.hasScenarioTracks ? scenarioTracks(for: request, in: index) : []
        let trackSteps = tracks.map { index.recordedTrack(at: $0).scenario }
        // A scenario track usually answers: then the rules need not be looked at.
        if !tracks.isEmpty, case .chosen(let offset) = states.takeFirst(trackSteps, stub: nil) {
            return .hit(trackHit(tracks[offset], in: index))
        }
        var candidates = RuleCandidates()
        if rules.count > 0 {
            candidates = rules.candidates(for: request)
            if tracks.isEmpty, let first = candidates.first, first.rule.scenario == nil {
                return .hit(LiveRules.hit(first, for: request))
            }
        }
        // The key's only tracks being stubs that wait for a state, "never recorded" would mislead.
        var stages = strategyReason == .notRecorded && !tracks.isEmpty ? [] : [strategyReason]
        let ruleList = candidates.all
        if !tracks.isEmpty || !ruleList.isEmpty {
            let label = { (offset: Int) in
                offset < tracks.count
                    ? trackLabel(tracks[offset], in: index) : LiveRules.stubLabel(ruleList[offset - tracks.count])
            }
            switch states.takeFirst(trackSteps + ruleList.map(\.rule.scenario), stub: label) {
            case .chosen(let offset) where offset < tracks.count:
                return .hit(trackHit(tracks[offset], in: index))
            case .chosen(let offset):
                return .hit(LiveRules.hit(ruleList[offset - tracks.count], for: request))
            case .noneMay(let mismatches):
                stages.append(.scenarioStateMismatch(mismatches))
            }
        }
        if rules.count > 0, ruleList.isEmpty {
            stages.append(.noRuleMatched(ruleCount: rules.count, rulesTried: candidates.tried))
        }
        return .miss(stages.count == 1 ? stages[0] : .everyStageMissed(stages))
    }

    /// The live tracks with a scenario recorded for the request's key, in the order added.
    private static func scenarioTracks(for request: IncomingRequest, in index: TrackIndex) -> [Int] {
        guard let group = index.keyGroup(for: request.key) else { return [] }
        return index.keys.members(of: group).filter { index.hasScenario($0) && !index.isRemoved($0) }
    }

    private static func trackHit(_ position: Int, in index: TrackIndex) -> Hit {
        Hit(recordedAt: position, in: index)
    }

    /// `track #3 "cart"`, or `track #3` when unnamed.
    private static func trackLabel(_ position: Int, in index: TrackIndex) -> String {
        "track #\(position)" + (index.recordedTrack(at: position).name.map { " \($0.debugDescription)" } ?? "")
    }
}
