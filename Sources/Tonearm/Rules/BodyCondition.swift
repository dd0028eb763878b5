/// A condition on the request body: on the whole body, or on the value at a JSON Pointer in it.
public struct BodyCondition: Sendable, Hashable {
    /// What part of the body is tested.
    public var location: BodyLocation
    /// What must hold there. At a JSON Pointer, for ``TextCondition/equals(_:)`` and
    /// ``TextCondition/matches(_:)``, a JSON string is compared by its text and any other value by its
    /// RFC 8785 canonical text (`.equals("42")` holds for the number 42).
    public var condition: TextCondition

    /// Creates a condition on the value at `pointer` (the body must parse as JSON).
    ///
    /// With ``BodyLocation/jsonPath(_:)`` the condition is tested on each value the path selects (see
    /// there) and holds when it holds for one; when the path selects nothing only
    /// ``TextCondition/absent`` holds.
    public init(_ pointer: JSONPointer, _ condition: TextCondition) {
        self.init(.pointer(pointer), condition)
    }

    /// Creates a condition on `location`.
    public init(_ location: BodyLocation, _ condition: TextCondition) {
        self.location = location
        self.condition = condition
    }

    /// The JSON Pointer tested, or `nil` when the condition is on the whole body.
    public var pointer: JSONPointer? { location.pointer }
}

/// Which part of a request body a ``BodyCondition`` tests. Locations will grow (form fields, XPath),
/// so this is a struct with static members.
public struct BodyLocation: Sendable, Hashable {
    enum Storage: Sendable, Hashable {
        case wholeBody
        case pointer(JSONPointer)
        case jsonPath(JSONPath)
    }

    let storage: Storage

    /// The whole body as sent. An empty body counts as missing: ``TextCondition/absent`` holds for it,
    /// ``TextCondition/equals(_:)`` (even of "") does not, as in WireMock.
    public static let wholeBody = BodyLocation(storage: .wholeBody)

    /// The value at `pointer` in the body parsed as JSON; a body that does not parse has no value there.
    public static func pointer(_ pointer: JSONPointer) -> BodyLocation { BodyLocation(storage: .pointer(pointer)) }

    /// The values `path` selects in the body parsed as JSON (numbers as written), as WireMock's
    /// `matchesJsonPath` reads them: for a definite path (`$.a.b`) its value, an array standing for its
    /// elements; for any other path every value selected. for a definite path `null`, an empty array or
    /// object, and null elements count as nothing. Each value is tested by its text: a string as itself, a number as
    /// Java writes it (`1`, `1.5`, `1.0E20`), `true`/`false`, an object or array as its JSON text.
    public static func jsonPath(_ path: JSONPath) -> BodyLocation { BodyLocation(storage: .jsonPath(path)) }

    /// The JSONPath, when the location is one.
    public var jsonPath: JSONPath? {
        if case .jsonPath(let path) = storage { return path }
        return nil
    }

    /// The JSON Pointer, when the location is one.
    public var pointer: JSONPointer? {
        if case .pointer(let pointer) = storage { return pointer }
        return nil
    }
}
