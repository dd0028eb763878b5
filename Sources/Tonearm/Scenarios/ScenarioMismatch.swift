/// A stub that matched a request but could not answer because its scenario was in another state: one
/// line of a ``MissReason/scenarioStateMismatch(_:)`` miss.
public struct ScenarioMismatch: Sendable, Hashable, CustomStringConvertible {
    /// The scenario's name.
    public var scenario: String
    /// The state the scenario was in when the request arrived.
    public var currentState: String
    /// The state the stub needs.
    public var requiredState: String
    /// The stub, as reports name it: `rule "pay"`, `track #3 "cart"` or `track #3`.
    public var stub: String

    /// Creates a mismatch.
    public init(scenario: String, currentState: String, requiredState: String, stub: String) {
        self.scenario = scenario
        self.currentState = currentState
        self.requiredState = requiredState
        self.stub = stub
    }

    /// `scenario "checkout" is in state "Paid", rule "pay" needs "Started"`.
    public var description: String {
        "scenario \(scenario.debugDescription) is in state \(currentState.debugDescription), \(stub) needs \(requiredState.debugDescription)"
    }
}
