/// A condition on one parameter of an `application/x-www-form-urlencoded` body (WireMock 3's
/// `formParameters`), compared on its decoded value (`%20` and `+` are spaces), as a query parameter is.
///
/// With several values for one name, the condition holds when it holds for any of them (or, for
/// ``TextCondition/hasExactly(_:)`` and ``TextCondition/includes(_:)``, as those read all the values);
/// a body that is not form-encoded has no parameters, so the condition is tested on the missing value.
public struct FormParameterCondition: Sendable, Hashable {
    /// The parameter name, decoded, compared exactly.
    public var name: String
    /// What must hold of its value.
    public var condition: TextCondition

    /// Creates a form parameter condition.
    public init(_ name: String, _ condition: TextCondition) {
        self.name = name
        self.condition = condition
    }
}
