import Tonearm
import TonearmServer

/// A scenario as WireMock 2.35.1 lists it in `GET /__admin/scenarios` and checks it in `PUT
/// /__admin/scenarios/{name}/state` (both compared with the jar by scripts/wiremock-diff.py).
struct WireMockScenario: Sendable {
    let name: String
    /// The state the engine holds the scenario in.
    let state: String
    /// The mappings taking part, in the order they were added (WireMock keeps them in insertion order).
    let mappings: [WireMockMapping]

    /// The states the scenario may be put in, as the jar computes them: every mapping's
    /// `newScenarioState`, then every mapping's `requiredScenarioState`, in the order the mappings were
    /// added, each once. `Started` is one only when a mapping names it, so a scenario whose mappings
    /// never say `Started` cannot be set to it (an empty body still resets it there, as in WireMock).
    var possibleStates: [String] {
        var states: [String] = []
        for member in ["newScenarioState", "requiredScenarioState"] {
            for mapping in mappings {
                guard let state = mapping.json[member: member]?.stringValue, !states.contains(state) else { continue }
                states.append(state)
            }
        }
        return states
    }

    /// The scenario as `GET /__admin/scenarios` lists it.
    var json: JSONValue {
        .object([
            "id": .string(name),
            "name": .string(name),
            "state": .string(state),
            "possibleStates": .array(possibleStates.map(JSONValue.string)),
            "mappings": .array(mappings.map(\.json)),
        ])
    }

    /// The error for a scenario no mapping takes part in: WireMock's 404, code and title.
    static func unknown(_ name: String) -> WireMockError {
        WireMockError(status: 404, code: 404, pointer: nil, title: "Scenario \(name) does not exist", detail: "")
    }

    /// The error for a state none of the scenario's mappings names: WireMock's 422, code 11 and title
    /// (the jar's title says `my-scenario` whatever the scenario; this one names it), and the states
    /// that are possible in `detail`.
    func unsupported(_ asked: String?) -> WireMockError {
        let states = possibleStates.map(\.debugDescription).joined(separator: ", ")
        return WireMockError(
            status: 422, code: 11, pointer: nil, title: "Scenario \(name) does not support state \(asked ?? "null")",
            detail: states.isEmpty ? "its mappings name no state" : "its mappings name the states \(states)")
    }
}
