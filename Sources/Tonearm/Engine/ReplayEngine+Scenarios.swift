/// Reading and setting scenario states (see ``ScenarioStep``): what an admin API such as WireMock's
/// `/__admin/scenarios` needs.
///
/// Tracks and rules with a ``ScenarioStep`` answer only while their scenario is in the step's required
/// state and then move it to the step's new state, in one atomic step. Tracks with a scenario are stubs:
/// every strategy (``Strategy/repeat``, ``Strategy/fifo(whenExhausted:)``, ``Strategy/uniquePlay``,
/// ``Strategy/strictOrder``, custom ones) steps over them, and when the strategy has no answer, the
/// first of the request's scenario tracks (in the order added) whose scenario is in its required state
/// answers, any number of times. Then rules are tried by priority and declared order, a rule whose
/// scenario is in another state being passed over for the next one.
extension ReplayEngine {
    /// Every scenario a live track or rule takes part in, by name in the order first mentioned (tracks
    /// before rules), with its current state.
    public var scenarios: [Scenario] {
        var order: [String] = []
        var byName: [String: Scenario] = [:]
        func note(_ step: ScenarioStep, entry: EntryID) {
            if byName[step.name] == nil {
                order.append(step.name)
                byName[step.name] = Scenario(
                    name: step.name, state: "", possibleStates: [ScenarioStep.startedState], entries: [])
            }
            byName[step.name]?.entries.append(entry)
            for state in [step.requiredState, step.newState].compactMap({ $0 })
            where byName[step.name]?.possibleStates.contains(state) == false {
                byName[step.name]?.possibleStates.append(state)
            }
        }
        for position in index.scenarioStates.trackPositions {
            guard let step = index.track(at: position)?.scenario else { continue }
            note(step, entry: EntryID(kind: .track, number: position))
        }
        for (sequence, rule) in ruleStage.numberedRules {
            guard let step = rule.scenario else { continue }
            note(step, entry: EntryID(kind: .rule, number: sequence))
        }
        return order.compactMap { name in
            byName[name].map { scenario in
                var scenario = scenario
                scenario.state = index.scenarioStates.state(of: name)
                return scenario
            }
        }
    }

    /// The scenario `name`, or `nil` when no live track or rule takes part in it.
    public func scenario(named name: String) -> Scenario? {
        scenarios.first { $0.name == name }
    }

    /// Puts the scenario `name` in `state`, as if a stub had moved it there.
    ///
    /// - Throws: ``ScenarioError/unknownScenario(_:)`` when no live track or rule takes part in it,
    ///   ``ScenarioError/impossibleState(scenario:state:possibleStates:)`` when none of them mentions
    ///   `state` (nor is it ``ScenarioStep/startedState``).
    public func setState(ofScenario name: String, to state: String) throws(ScenarioError) {
        guard let scenario = scenario(named: name) else { throw .unknownScenario(name) }
        guard scenario.possibleStates.contains(state) else {
            throw .impossibleState(scenario: name, state: state, possibleStates: scenario.possibleStates)
        }
        index.scenarioStates.set(name, to: state)
    }

    /// Puts the scenario `name` back in ``ScenarioStep/startedState``.
    ///
    /// - Throws: ``ScenarioError/unknownScenario(_:)`` when no live track or rule takes part in it.
    public func resetScenario(_ name: String) throws(ScenarioError) {
        guard scenario(named: name) != nil else { throw .unknownScenario(name) }
        index.scenarioStates.reset(name)
    }

    /// Puts every scenario back in ``ScenarioStep/startedState``, leaving tracks' play counts and strict
    /// order where they are (``reset()`` resets those too).
    public func resetScenarios() {
        index.scenarioStates.resetAll()
    }
}
