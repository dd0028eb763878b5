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
/// The three strings live in one shared box, so a track without a scenario pays a single word for the
/// property and one with a scenario no more than two.
public struct ScenarioStep: Sendable, Hashable, CustomStringConvertible {
    /// Immutable once made; a setter on the step makes a new box.
    private final class Box: Sendable {
        let name: String
        let requiredState: String?
        let newState: String?

        init(name: String, requiredState: String?, newState: String?) {
            self.name = name
            self.requiredState = requiredState
            self.newState = newState
        }
    }

    private var box: Box

    /// The state every scenario is in before any stub moves it, and again after a reset: `Started`, as
    /// in WireMock.
    public static let startedState = "Started"

    /// A step in the scenario `name` that answers only in `requiredState` (in any state when `nil`) and
    /// moves the scenario to `newState` when it answers (leaves it where it is when `nil`).
    public init(_ name: String, requiredState: String? = nil, newState: String? = nil) {
        box = Box(name: name, requiredState: requiredState, newState: newState)
    }

    /// The scenario's name; stubs with the same name share one state.
    public var name: String {
        get { box.name }
        set { box = Box(name: newValue, requiredState: box.requiredState, newState: box.newState) }
    }

    /// The state the scenario must be in for the stub to answer; `nil` answers in any state.
    public var requiredState: String? {
        get { box.requiredState }
        set { box = Box(name: box.name, requiredState: newValue, newState: box.newState) }
    }

    /// The state the scenario moves to when the stub answers; `nil` leaves it unchanged.
    public var newState: String? {
        get { box.newState }
        set { box = Box(name: box.name, requiredState: box.requiredState, newState: newValue) }
    }

    /// Whether the stub answers when its scenario is in `state`.
    public func allows(_ state: String) -> Bool {
        requiredState.map { $0 == state } ?? true
    }

    /// Equal name and states.
    public static func == (lhs: ScenarioStep, rhs: ScenarioStep) -> Bool {
        lhs.box === rhs.box
            || (lhs.name == rhs.name && lhs.requiredState == rhs.requiredState && lhs.newState == rhs.newState)
    }

    /// Hashes name and states.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(requiredState)
        hasher.combine(newState)
    }

    /// `scenario "checkout": "Started" → "Paid"`, with `any state` and `unchanged` for missing states.
    public var description: String {
        let from = requiredState.map(\.debugDescription) ?? "any state"
        let to = newState.map(\.debugDescription) ?? "unchanged"
        return "scenario \(name.debugDescription): \(from) → \(to)"
    }
}
