/// A condition on the parts of a `multipart/*` request body (a form upload, a `multipart/mixed` batch):
/// each part is tested by its headers and its body, and the condition holds when any part passes
/// (``Matching/any``) or every part does (``Matching/all``). A request whose body is not multipart
/// (by its `Content-Type` and boundary) satisfies no multipart condition.
public struct MultipartCondition: Sendable, Hashable {
    /// Whether one part or every part must pass. Grows like the other condition kinds, so a struct.
    public struct Matching: Sendable, Hashable, CustomStringConvertible {
        let requiresEveryPart: Bool

        /// At least one part passes.
        public static let any = Matching(requiresEveryPart: false)
        /// Every part passes.
        public static let all = Matching(requiresEveryPart: true)

        /// `ANY` or `ALL`, as WireMock's `matchingType` names them.
        public var description: String { requiresEveryPart ? "ALL" : "ANY" }
    }

    /// Whether one part or every part must pass.
    public var matching: Matching
    /// Conditions on a part's headers (`Content-Disposition`, `Content-Type`), names compared
    /// case-insensitively; a repeated header passes when one of its values does.
    public var headers: [HeaderCondition]
    /// Conditions on a part's body: the whole part, or a value in it parsed as JSON.
    public var body: [BodyCondition]

    /// Creates a multipart condition.
    public init(_ matching: Matching = .any, headers: [HeaderCondition] = [], body: [BodyCondition] = []) {
        self.matching = matching
        self.headers = headers
        self.body = body
    }
}
