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
    /// Cookie conditions (on the cookies of the `Cookie` headers) that must all hold.
    public var cookies: [CookieCondition]
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
    /// Conditions on the parts of a multipart body, all of which must hold (none by default; set after
    /// creating the rule).
    public var multipart: [MultipartCondition] = []
    /// The template the path is read with for ``pathParameters`` (WireMock 3's `urlPathTemplate`; set
    /// after creating the rule). It does not replace `pattern`, which must match on its own.
    public var pathTemplate: PathTemplate?
    /// Conditions on the values of ``pathTemplate``'s parameters in the request's path, all of which
    /// must hold (none by default).
    public var pathParameters: [PathParameterCondition] = []
    /// Conditions on the parameters of an `application/x-www-form-urlencoded` body (WireMock 3's
    /// `formParameters`), all of which must hold (none by default; set after creating the rule).
    public var formParameters: [FormParameterCondition] = []

    /// The priority of a rule that declares none.
    public static let defaultPriority = 5

    /// Creates a rule answering with `response`.
    public init(
        name: String? = nil, method: String? = nil, pattern: String, target: Target = .url,
        query: [QueryCondition] = [], headers: [HeaderCondition] = [], cookies: [CookieCondition] = [],
        body: [BodyCondition] = [], priority: Int? = nil, response: Response, delay: Duration? = nil,
        bodyFile: String? = nil, scenario: ScenarioStep? = nil
    ) {
        self.init(
            name: name, method: method, pattern: pattern, target: target, query: query, headers: headers,
            cookies: cookies, body: body, priority: priority, outcome: .response(response), delay: delay, bodyFile: bodyFile,
            scenario: scenario)
    }

    /// Creates a rule with any outcome.
    public init(
        name: String? = nil, method: String? = nil, pattern: String, target: Target = .url,
        query: [QueryCondition] = [], headers: [HeaderCondition] = [], cookies: [CookieCondition] = [],
        body: [BodyCondition] = [], priority: Int? = nil, outcome: Track.Outcome, delay: Duration? = nil, bodyFile: String? = nil,
        scenario: ScenarioStep? = nil
    ) {
        self.name = name ?? ""
        self.method = method
        self.pattern = pattern
        self.target = target
        self.query = query
        self.headers = headers
        self.cookies = cookies
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
/// With several values for one name, the condition holds when it holds for any of them; with none, it
/// is tested on the missing value (``TextCondition/absent`` and ``TextCondition/doesNotMatch(_:)`` hold).
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

/// A condition on a header's value; a repeated header holds when any of its values does, a missing one
/// as a missing query parameter does.
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

/// A condition on a cookie sent in the `Cookie` header(s), by name (compared exactly) and value
/// (surrounding double quotes removed).
///
/// A cookie sent several times holds when any value does. A cookie not sent satisfies only
/// ``TextCondition/absent``, as in WireMock (where a missing header satisfies `doesNotMatch` too).
public struct CookieCondition: Sendable, Hashable {
    /// The cookie name, compared exactly.
    public var name: String
    /// What must hold of its value.
    public var condition: TextCondition

    /// Creates a cookie condition.
    public init(_ name: String, _ condition: TextCondition) {
        self.name = name
        self.condition = condition
    }
}
