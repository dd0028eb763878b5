/// One way a live request differs from a recorded track, as shown in a miss report.
///
/// "Recorded" is the track's side, "received" the live request's. A parameter or header that only the
/// received request has shows with empty `recorded` values ("added"), one only the track has with empty
/// `received` values ("removed").
///
/// Comparisons will learn new parts of a request, so this is a struct with static members rather than an
/// enum: build one as you would an enum case (`.header(name:recorded:received:)`), compare with `==`,
/// and read it through ``identifier`` and the typed accessors instead of a `switch`.
public struct FieldDifference: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: Sendable, Hashable {
        case method(recorded: String, received: String)
        case origin(recorded: String, received: String)
        case path(recorded: String, received: String)
        case queryParameter(name: String, recorded: [String], received: [String])
        case header(name: String, recorded: [String], received: [String])
        case bodyKind(recorded: BodyKind?, received: BodyKind?)
        case jsonBody(JSONDifference)
        case formField(name: String, recorded: [String], received: [String])
        case rawBody(recordedLength: Int, receivedLength: Int, firstDifference: Int)
        case scenarioState(scenario: String, current: String, required: String)
        case unmetCondition(part: String, name: String?, condition: String, received: [String])
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// Different methods.
    public static func method(recorded: String, received: String) -> FieldDifference {
        FieldDifference(.method(recorded: recorded, received: received))
    }

    /// Different scheme, host or port (the URL's origin).
    public static func origin(recorded: String, received: String) -> FieldDifference {
        FieldDifference(.origin(recorded: recorded, received: received))
    }

    /// Different normalised paths.
    public static func path(recorded: String, received: String) -> FieldDifference {
        FieldDifference(.path(recorded: recorded, received: received))
    }

    /// A query parameter added, removed or with different values (decoded, in canonical order).
    public static func queryParameter(name: String, recorded: [String], received: [String]) -> FieldDifference {
        FieldDifference(.queryParameter(name: name, recorded: recorded, received: received))
    }

    /// A header added, removed or with different values.
    public static func header(name: String, recorded: [String], received: [String]) -> FieldDifference {
        FieldDifference(.header(name: name, recorded: recorded, received: received))
    }

    /// The bodies were read differently (e.g. JSON against raw bytes); `nil` means no body at all.
    public static func bodyKind(recorded: BodyKind?, received: BodyKind?) -> FieldDifference {
        FieldDifference(.bodyKind(recorded: recorded, received: received))
    }

    /// A JSON body differs at one location.
    public static func jsonBody(_ difference: JSONDifference) -> FieldDifference {
        FieldDifference(.jsonBody(difference))
    }

    /// A form body field added, removed or with different values.
    public static func formField(name: String, recorded: [String], received: [String]) -> FieldDifference {
        FieldDifference(.formField(name: name, recorded: recorded, received: received))
    }

    /// Raw bodies differ; `firstDifference` is the first differing byte offset.
    public static func rawBody(recordedLength: Int, receivedLength: Int, firstDifference: Int) -> FieldDifference {
        FieldDifference(.rawBody(recordedLength: recordedLength, receivedLength: receivedLength, firstDifference: firstDifference))
    }

    /// The request is the track's, but the track's scenario is in `current` and the track needs
    /// `required` (``ScenarioStep/requiredState``).
    public static func scenarioState(scenario: String, current: String, required: String) -> FieldDifference {
        FieldDifference(.scenarioState(scenario: scenario, current: current, required: required))
    }

    /// A stub rule's condition the live request does not meet: `part` is `method`, `url` or `path` (the
    /// rule's pattern), `query parameter`, `header`, `cookie`, `body` or `multipart`; `name` the parameter,
    /// header or cookie (for a body, where in it: a JSON Pointer or JSONPath); `condition` what the rule
    /// asks for (``TextCondition``'s description); `received` what the request has there (empty when
    /// nothing).
    public static func unmetCondition(_ part: String, name: String? = nil, condition: String, received: [String]) -> FieldDifference {
        FieldDifference(.unmetCondition(part: part, name: name, condition: condition, received: received))
    }

    /// Which part of the request differs, named like the static member that makes it: `method`,
    /// `origin`, `path`, `queryParameter`, `header`, `bodyKind`, `jsonBody`, `formField`, `rawBody`,
    /// `unmetCondition` (a rule's condition) or `scenarioState` (not the request: the state its scenario
    /// is in).
    public var identifier: String {
        switch storage {
        case .method: "method"
        case .origin: "origin"
        case .path: "path"
        case .queryParameter: "queryParameter"
        case .header: "header"
        case .bodyKind: "bodyKind"
        case .jsonBody: "jsonBody"
        case .formField: "formField"
        case .rawBody: "rawBody"
        case .scenarioState: "scenarioState"
        case .unmetCondition: "unmetCondition"
        }
    }

    /// The query parameter, header or form field that differs, the scenario whose state does, or the
    /// name an unmet condition gives; `nil` for the other differences.
    public var fieldName: String? {
        switch storage {
        case .queryParameter(let name, _, _), .header(let name, _, _), .formField(let name, _, _),
            .scenarioState(let name, _, _): name
        case .unmetCondition(_, let name, _, _): name
        default: nil
        }
    }

    /// For an unmet condition, which part of the request it tests (see
    /// ``unmetCondition(_:name:condition:received:)``); `nil` for the other differences.
    public var conditionPart: String? {
        if case .unmetCondition(let part, _, _, _) = storage { return part }
        return nil
    }

    /// The track's values: one for the method, origin and path, the values (empty when removed) for a
    /// query parameter, header or form field, the state the track needs for a scenario state, the
    /// condition for an unmet condition; `nil` for body differences, read through ``recordedBodyKind``,
    /// ``jsonDifference`` and ``recordedLength``.
    public var recorded: [String]? {
        switch storage {
        case .method(let recorded, _), .origin(let recorded, _), .path(let recorded, _): [recorded]
        case .unmetCondition(_, _, let condition, _): [condition]
        case .scenarioState(_, _, let required): [required]
        case .queryParameter(_, let recorded, _), .header(_, let recorded, _), .formField(_, let recorded, _): recorded
        default: nil
        }
    }

    /// The live request's values, as ``recorded`` gives the track's (for a scenario state, the state the
    /// scenario was in).
    public var received: [String]? {
        switch storage {
        case .method(_, let received), .origin(_, let received), .path(_, let received): [received]
        case .scenarioState(_, let current, _): [current]
        case .queryParameter(_, _, let received), .header(_, _, let received), .formField(_, _, let received): received
        case .unmetCondition(_, _, _, let received): received
        default: nil
        }
    }

    /// How the track's body was read, for ``bodyKind(recorded:received:)``; `nil` when the track has no
    /// body, and for the other differences (tell them apart with ``identifier``).
    public var recordedBodyKind: BodyKind? {
        if case .bodyKind(let recorded, _) = storage { return recorded }
        return nil
    }

    /// How the live request's body was read, as ``recordedBodyKind`` gives the track's.
    public var receivedBodyKind: BodyKind? {
        if case .bodyKind(_, let received) = storage { return received }
        return nil
    }

    /// Where and how the JSON bodies differ (``jsonBody(_:)``); `nil` otherwise.
    public var jsonDifference: JSONDifference? {
        if case .jsonBody(let difference) = storage { return difference }
        return nil
    }

    /// The track's raw body length in bytes
    /// (``rawBody(recordedLength:receivedLength:firstDifference:)``); `nil` otherwise.
    public var recordedLength: Int? {
        if case .rawBody(let length, _, _) = storage { return length }
        return nil
    }

    /// The live request's raw body length in bytes, as ``recordedLength`` gives the track's.
    public var receivedLength: Int? {
        if case .rawBody(_, let length, _) = storage { return length }
        return nil
    }

    /// The offset of the first byte where the raw bodies differ; `nil` for other differences.
    public var firstDifference: Int? {
        if case .rawBody(_, _, let offset) = storage { return offset }
        return nil
    }

    /// How far apart this makes the two requests; the closest tracks have the smallest total. A scenario
    /// state weighs nothing: the request is the track's, so such a track is as close as can be.
    var weight: Int {
        switch storage {
        case .method, .origin, .path: 4
        case .unmetCondition(let part, _, _, _):
            switch part {
            case "method", "url", "path": 4
            default: 1
            }
        case .bodyKind: 3
        case .scenarioState: 0
        default: 1
        }
    }

    /// One line of explanation.
    public var description: String {
        switch storage {
        case .method(let recorded, let received):
            "method: recorded \(recorded), received \(received)"
        case .origin(let recorded, let received):
            "host: recorded \(recorded), received \(received)"
        case .path(let recorded, let received):
            "path: recorded \(recorded), received \(received)"
        case .queryParameter(let name, let recorded, let received):
            Self.describeValues(kind: "query parameter", name: name, recorded: recorded, received: received)
        case .header(let name, let recorded, let received):
            Self.describeValues(kind: "header", name: name, recorded: recorded, received: received)
        case .bodyKind(let recorded, let received):
            "body: recorded \(recorded.map { "as \($0.rawValue)" } ?? "empty"), received \(received.map { "as \($0.rawValue)" } ?? "empty")"
        case .jsonBody(let difference):
            "body \(difference)"
        case .formField(let name, let recorded, let received):
            Self.describeValues(kind: "form field", name: name, recorded: recorded, received: received)
        case .rawBody(let recordedLength, let receivedLength, let offset):
            "body bytes: recorded \(recordedLength) bytes, received \(receivedLength), first difference at byte \(offset)"
        case .scenarioState(let scenario, let current, let required):
            "scenario \(scenario.debugDescription) is in state \(current.debugDescription), this stub needs \(required.debugDescription)"
        case .unmetCondition(let part, let name, let condition, let received):
            "\(part)\(name.map { " \($0.debugDescription)" } ?? ""): needs \(condition), received "
                + (received.isEmpty ? "nothing" : received.map(\.debugDescription).joined(separator: ", "))
        }
    }

    private static func describeValues(kind: String, name: String, recorded: [String], received: [String]) -> String {
        let shown = { (values: [String]) in values.map(\.debugDescription).joined(separator: ", ") }
        if recorded.isEmpty { return "\(kind) \"\(name)\" added: received \(shown(received))" }
        if received.isEmpty { return "\(kind) \"\(name)\" missing: recorded \(shown(recorded))" }
        return "\(kind) \"\(name)\": recorded \(shown(recorded)), received \(shown(received))"
    }
}
