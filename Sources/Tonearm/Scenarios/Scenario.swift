/// A scenario as an engine sees it: its current state, the states its stubs mention, and the stubs
/// that take part in it (what WireMock's `GET /__admin/scenarios` lists).
public struct Scenario: Sendable, Hashable, CustomStringConvertible {
    /// The scenario's name, shared by its stubs' ``ScenarioStep/name``.
    public var name: String
    /// The state it is in now.
    public var state: String
    /// ``ScenarioStep/startedState``, then every required and new state its live stubs mention, each
    /// once, in the order the stubs were added (tracks before rules).
    public var possibleStates: [String]
    /// The live tracks and rules whose ``ScenarioStep/name`` is this scenario's, tracks first, each in
    /// the order added.
    public var entries: [ReplayEngine.EntryID]

    /// Creates a scenario description.
    public init(name: String, state: String, possibleStates: [String], entries: [ReplayEngine.EntryID]) {
        self.name = name
        self.state = state
        self.possibleStates = possibleStates
        self.entries = entries
    }

    /// `scenario "checkout" in state "Paid" (states "Started", "Paid"; 2 stubs)`.
    public var description: String {
        let states = possibleStates.map(\.debugDescription).joined(separator: ", ")
        return "scenario \(name.debugDescription) in state \(state.debugDescription) (states \(states); "
            + "\(entries.count) stub\(entries.count == 1 ? "" : "s"))"
    }
}
