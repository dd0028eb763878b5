/// A condition on one parameter of a rule's ``Rule/pathTemplate`` (`contactId` in
/// `/v1/contacts/{contactId}`), tested on the parameter's value as the path has it (escapes kept). A
/// name the template does not have is tested on a missing value: only ``TextCondition/absent`` and
/// the negative conditions hold.
public struct PathParameterCondition: Sendable, Hashable {
    /// The parameter name: a variable's name, or a wildcard's number (`0`).
    public var name: String
    /// What must hold of its value.
    public var condition: TextCondition

    /// Creates a path parameter condition.
    public init(_ name: String, _ condition: TextCondition) {
        self.name = name
        self.condition = condition
    }
}
