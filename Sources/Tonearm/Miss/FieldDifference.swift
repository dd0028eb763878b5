/// One way a live request differs from a recorded track, as shown in a miss report.
///
/// "Recorded" is the track's side, "received" the live request's. A parameter or header that only the
/// received request has shows with empty `recorded` values ("added"), one only the track has with empty
/// `received` values ("removed").
public enum FieldDifference: Sendable, Hashable, CustomStringConvertible {
    /// Different methods.
    case method(recorded: String, received: String)
    /// Different scheme, host or port (the URL's origin).
    case origin(recorded: String, received: String)
    /// Different normalised paths.
    case path(recorded: String, received: String)
    /// A query parameter added, removed or with different values (decoded, in canonical order).
    case queryParameter(name: String, recorded: [String], received: [String])
    /// A header added, removed or with different values.
    case header(name: String, recorded: [String], received: [String])
    /// The bodies were read differently (e.g. JSON against raw bytes); `nil` means no body at all.
    case bodyKind(recorded: BodyKind?, received: BodyKind?)
    /// A JSON body differs at one location.
    case jsonBody(JSONDifference)
    /// A form body field added, removed or with different values.
    case formField(name: String, recorded: [String], received: [String])
    /// Raw bodies differ; `firstDifference` is the first differing byte offset.
    case rawBody(recordedLength: Int, receivedLength: Int, firstDifference: Int)

    /// How far apart this makes the two requests; the closest tracks have the smallest total.
    var weight: Int {
        switch self {
        case .method, .origin, .path: 4
        case .bodyKind: 3
        default: 1
        }
    }

    /// One line of explanation.
    public var description: String {
        switch self {
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
        }
    }

    private static func describeValues(kind: String, name: String, recorded: [String], received: [String]) -> String {
        let shown = { (values: [String]) in values.map(\.debugDescription).joined(separator: ", ") }
        if recorded.isEmpty { return "\(kind) \"\(name)\" added: received \(shown(received))" }
        if received.isEmpty { return "\(kind) \"\(name)\" missing: recorded \(shown(recorded))" }
        return "\(kind) \"\(name)\": recorded \(shown(recorded)), received \(shown(received))"
    }
}
