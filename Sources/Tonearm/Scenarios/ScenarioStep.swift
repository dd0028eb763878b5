/// A stub's part in a stateful scenario (WireMock's `scenarioName`, `requiredScenarioState` and
/// `newScenarioState`): the state its scenario must be in for the stub to answer, and the state the
/// scenario moves to when it does.
///
/// Every scenario starts in ``startedState``. A ``ReplayEngine`` checks the required state and makes the
/// move as one atomic step, so two concurrent requests can never both answer from the same state of a
/// scenario that moves on:
///
/// ```swift
/// let cart = Track(
///     request: Request(method: "GET", url: "https://shop.example/cart"), response: Response(status: 200),
///     scenario: ScenarioStep("checkout", requiredState: ScenarioStep.startedState, newState: "Paid"))
/// ```
///
/// A track with a scenario is a stub in WireMock's sense: it answers any number of times while its
/// scenario is in its required state (always, when it requires none), whatever the engine's strategy.
///
/// A step's strings live in one shared, immutable object: copying a track with a step, which every hit
/// on it does, retains one reference more (a track without one costs what it did before scenarios), and the strings are freed with the last track, rule or mapping holding the step,
/// so a long-running server whose clients add and remove scenarios keeps only the live ones.
public struct ScenarioStep: Sendable, Hashable, CustomStringConvertible {
    /// The step's three strings, shared by every copy of the step.
    final class Strings: Sendable {
        let name: String
        let requiredState: String?
        let newState: String?

        init(name: String, requiredState: String?, newState: String?) {
            self.name = name
            self.requiredState = requiredState
            self.newState = newState
        }
    }

    /// Internal rather than private so that tests can watch it being freed.
    let strings: Strings

    /// The state every scenario is in before any stub moves it, and again after a reset: `Started`, as
    /// in WireMock.
    public static let startedState = "Started"

    /// A step in the scenario `name` that answers only in `requiredState` (in any state when `nil`) and
    /// moves the scenario to `newState` when it answers (leaves it where it is when `nil`).
    public init(_ name: String, requiredState: String? = nil, newState: String? = nil) {
        strings = Strings(name: name, requiredState: requiredState, newState: newState)
    }

    /// Whether the steps have the same scenario and states.
    public static func == (lhs: ScenarioStep, rhs: ScenarioStep) -> Bool {
        lhs.strings === rhs.strings
            || (lhs.name == rhs.name && lhs.requiredState == rhs.requiredState && lhs.newState == rhs.newState)
    }

    /// Hashes the scenario and states.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(requiredState)
        hasher.combine(newState)
    }

    /// The scenario's name; stubs with the same name share one state.
    public var name: String {
        get { strings.name }
        set { self = ScenarioStep(newValue, requiredState: requiredState, newState: newState) }
    }

    /// The state the scenario must be in for the stub to answer; `nil` answers in any state.
    public var requiredState: String? {
        get { strings.requiredState }
        set { self = ScenarioStep(name, requiredState: newValue, newState: newState) }
    }

    /// The state the scenario moves to when the stub answers; `nil` leaves it unchanged.
    public var newState: String? {
        get { strings.newState }
        set { self = ScenarioStep(name, requiredState: requiredState, newState: newValue) }
    }

    /// Whether the stub answers when its scenario is in `state`.
    public func allows(_ state: String) -> Bool {
        requiredState.map { $0 == state } ?? true
    }

    /// `scenario "checkout": "Started" → "Paid"`, with `any state` and `unchanged` for missing states.
    public var description: String {
        let from = requiredState.map(\.debugDescription) ?? "any state"
        let to = newState.map(\.debugDescription) ?? "unchanged"
        return "scenario \(name.debugDescription): \(from) → \(to)"
    }
}
