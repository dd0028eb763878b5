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
/// A step is a number naming its three strings in a process-wide table (equal steps share one entry),
/// so copying a track, which every hit does, retains nothing more than it did before tracks had
/// scenarios: a plain GET hit costs the instructions it did. The table only grows, by one entry per
/// distinct (name, required state, new state) ever made, which programs make a handful of.
public struct ScenarioStep: Sendable, Hashable, CustomStringConvertible {
    /// The step's entry in ``ScenarioStepTable/shared``; equal steps have equal entries.
    private var entry: UInt32

    /// The state every scenario is in before any stub moves it, and again after a reset: `Started`, as
    /// in WireMock.
    public static let startedState = "Started"

    /// A step in the scenario `name` that answers only in `requiredState` (in any state when `nil`) and
    /// moves the scenario to `newState` when it answers (leaves it where it is when `nil`).
    public init(_ name: String, requiredState: String? = nil, newState: String? = nil) {
        entry = ScenarioStepTable.shared.entry(for: .init(name: name, requiredState: requiredState, newState: newState))
    }

    private var strings: ScenarioStepTable.Strings { ScenarioStepTable.shared[entry] }

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
