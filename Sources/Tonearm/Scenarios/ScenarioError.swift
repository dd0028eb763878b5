/// Why a scenario's state could not be set or reset.
///
/// New checks may come, so this is a struct with static members rather than an enum: compare with
/// `==` and read ``identifier``.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Storage: Sendable, Hashable {
        case unknownScenario(String)
        case impossibleState(scenario: String, state: String, possibleStates: [String])
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// No live track or rule of the engine takes part in the scenario `name`.
    public static func unknownScenario(_ name: String) -> ScenarioError {
        ScenarioError(.unknownScenario(name))
    }

    /// No stub of `scenario` mentions `state`, so the scenario could never leave it by a stub's move
    /// nor answer in it.
    public static func impossibleState(scenario: String, state: String, possibleStates: [String]) -> ScenarioError {
        ScenarioError(.impossibleState(scenario: scenario, state: state, possibleStates: possibleStates))
    }

    /// `unknown-scenario` or `impossible-state`: a stable token for machines (an admin API's error).
    public var identifier: String {
        switch storage {
        case .unknownScenario: "unknown-scenario"
        case .impossibleState: "impossible-state"
        }
    }

    /// The scenario the error is about.
    public var scenario: String {
        switch storage {
        case .unknownScenario(let name), .impossibleState(let name, _, _): name
        }
    }

    /// The state that was asked for (``impossibleState(scenario:state:possibleStates:)``); `nil` otherwise.
    public var state: String? {
        if case .impossibleState(_, let state, _) = storage { return state }
        return nil
    }

    /// The states the scenario can be in (``impossibleState(scenario:state:possibleStates:)``); `nil`
    /// otherwise.
    public var possibleStates: [String]? {
        if case .impossibleState(_, _, let states) = storage { return states }
        return nil
    }

    /// One line, naming the scenario, the state and what was possible.
    public var description: String {
        switch storage {
        case .unknownScenario(let name):
            "scenario \(name.debugDescription) is not used by any track or rule"
        case .impossibleState(let name, let state, let states):
            "scenario \(name.debugDescription) has no state \(state.debugDescription); its stubs mention "
                + states.map(\.debugDescription).joined(separator: ", ")
        }
    }
}
