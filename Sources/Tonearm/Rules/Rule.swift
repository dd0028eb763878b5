/// One stub rule: which requests it answers (method, a regular expression over the normalised URL or
/// path, optional header and JSON-body conditions) and what it answers with.
public struct Rule: Sendable, Hashable {
    /// What the pattern is matched against.
    public enum Target: String, Sendable, Hashable {
        /// The normalised URL: `scheme://host[:port]/path`, then `?` and the canonical sorted query
        /// when there is one.
        case url
        /// The normalised path alone, without query.
        case path
    }

    /// A name for reports and errors; defaults to `rule N`.
    public var name: String
    /// The method the rule answers (any when `nil`), compared case-insensitively.
    public var method: String?
    /// A regular expression (the syntax Java, RE2 and Swift `Regex` share, matched in time linear in the
    /// target; lookaround and backreferences are refused, see docs/limits.md) searched for in the target;
    /// anchor it with `^`/`$` to match the whole target. A literal `^https://host/...` prefix lets the rule set skip the rule
    /// for requests elsewhere without running the expression.
    public var pattern: String
    /// What `pattern` is matched against.
    public var target: Target
    /// Query parameter conditions that must all hold, whatever the parameters' order.
    public var query: [QueryCondition]
    /// Header conditions that must all hold.
    public var headers: [HeaderCondition]
    /// JSON body conditions that must all hold (the body must parse as JSON when there are any).
    public var body: [BodyCondition]
    /// Lower numbers are tried first (1 before 5); rules of equal priority keep their declared order.
    /// Rules without one have priority ``Rule/defaultPriority``, as in WireMock.
    public var priority: Int?
    /// What the rule answers with: a response or a simulated transport error.
    public var outcome: Track.Outcome
    /// Simulated latency before answering.
    public var delay: Duration?
    /// Where the response body was read from, for reports (the loader reads the file; the core does no I/O).
    public var bodyFile: String?
    /// The rule's step in a stateful scenario: a rule whose request conditions hold answers only while
    /// the scenario is in the step's required state (otherwise the next rule by priority is tried), and
    /// moves the scenario on when it answers.
    public var scenario: ScenarioStep?

    /// The priority of a rule that declares none.
    public static let defaultPriority = 5

    /// Creates a rule answering with `response`.
    public init(
        name: String? = nil, method: String? = nil, pattern: String, target: Target = .url,
        query: [QueryCondition] = [], headers: [HeaderCondition] = [], body: [BodyCondition] = [],
        priority: Int? = nil, response: Response, delay: Duration? = nil, bodyFile: String? = nil,
        scenario: ScenarioStep? = nil
    ) {
        self.init(
            name: name, method: method, pattern: pattern, target: target, query: query, headers: headers,
            body: body, priority: priority, outcome: .response(response), delay: delay, bodyFile: bodyFile,
            scenario: scenario)
    }

    /// Creates a rule with any outcome.
    public init(
        name: String? = nil, method: String? = nil, pattern: String, target: Target = .url,
        query: [QueryCondition] = [], headers: [HeaderCondition] = [], body: [BodyCondition] = [],
        priority: Int? = nil, outcome: Track.Outcome, delay: Duration? = nil, bodyFile: String? = nil,
        scenario: ScenarioStep? = nil
    ) {
        self.name = name ?? ""
        self.method = method
        self.pattern = pattern
        self.target = target
        self.query = query
        self.headers = headers
        self.body = body
        self.priority = priority
        self.outcome = outcome
        self.delay = delay
        self.bodyFile = bodyFile
        self.scenario = scenario
    }
}

/// A condition on a query parameter, compared on its decoded value (`%20` and `+` are spaces).
///
/// With several values for one name, `.equals`, `.contains` and `.matches` hold when any value does.
public struct QueryCondition: Sendable, Hashable {
    /// The parameter name, decoded, compared exactly.
    public var name: String
    /// What must hold of its value.
    public var condition: TextCondition

    /// Creates a query condition.
    public init(_ name: String, _ condition: TextCondition) {
        self.name = name
        self.condition = condition
    }
}

/// A condition on a header's value.
public struct HeaderCondition: Sendable, Hashable {
    /// The header name, compared case-insensitively.
    public var name: String
    /// What must hold of its value.
    public var condition: TextCondition

    /// Creates a header condition.
    public init(_ name: String, _ condition: TextCondition) {
        self.name = name
        self.condition = condition
    }
}

/// A condition on the value at a JSON Pointer in the request body.
public struct BodyCondition: Sendable, Hashable {
    /// Where in the body.
    public var pointer: JSONPointer
    /// What must hold there. For `.equals` and `.matches`, a JSON string is compared by its text and
    /// any other value by its RFC 8785 canonical text (`.equals("42")` holds for the number 42).
    public var condition: TextCondition

    /// Creates a body condition.
    public init(_ pointer: JSONPointer, _ condition: TextCondition) {
        self.pointer = pointer
        self.condition = condition
    }
}

/// What must hold of a header value or a JSON value.
///
/// Stub formats keep bringing new tests (prefixes, case-insensitive equality, negation), so this is a
/// struct with static members rather than an enum: write `.equals("x")` or `.absent`, compare with `==`,
/// and read ``identifier`` and ``operand``.
public struct TextCondition: Sendable, Hashable, CustomStringConvertible {
    /// Internal so compiled rules can evaluate the conditions exhaustively.
    enum Storage: Sendable, Hashable {
        case equals(String)
        case contains(String)
        case matches(String)
        case present
        case absent
    }

    let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// The value equals this text exactly.
    public static func equals(_ text: String) -> TextCondition { TextCondition(.equals(text)) }
    /// The value contains this text.
    public static func contains(_ text: String) -> TextCondition { TextCondition(.contains(text)) }
    /// The regular expression is found in the value.
    public static func matches(_ pattern: String) -> TextCondition { TextCondition(.matches(pattern)) }
    /// The value is present, whatever it is.
    public static let present = TextCondition(.present)
    /// The value is absent.
    public static let absent = TextCondition(.absent)

    /// The kind of test, as rule files name it: `equals`, `contains`, `matches`, `present` or `absent`.
    public var identifier: String {
        switch storage {
        case .equals: "equals"
        case .contains: "contains"
        case .matches: "matches"
        case .present: "present"
        case .absent: "absent"
        }
    }

    /// The text compared against, or the regular expression for ``matches(_:)``; `nil` for
    /// ``present`` and ``absent``.
    public var operand: String? {
        switch storage {
        case .equals(let text), .contains(let text), .matches(let text): text
        case .present, .absent: nil
        }
    }

    /// `identifier` and the operand, e.g. `equals "x"` or `absent`.
    public var description: String {
        operand.map { "\(identifier) \($0.debugDescription)" } ?? identifier
    }
}
