import Tonearm

/// Seeded regex stub rules over the same hosts and routes as ``Workload``, with request streams that
/// exercise them: for benchmarking rule matching at 10 to 100,000 rules.
///
/// Most rules are anchored URL patterns (`^https://api7\.example\.com/v1/users/[0-9]+(\?.*)?$`), some
/// also require a query parameter, one in ten is a WireMock-style `urlPathPattern` on the path alone
/// with an id and an alternation (`^/api/res17/[0-9]+/(items|orders)$`, as a mapping folder generated per
/// resource has them), one in twenty matches asset paths (`^/assets/…`), one in fifty has no literal
/// prefix at all (searched anywhere in the URL, so no index can skip it), and one in twenty-five carries
/// an explicit priority. URL rules walk host × route × method (1,600 of them); past that each further
/// round goes under a tenant segment of its own (`/t2/v1/users/…`), so a set of 100,000 rules has no
/// two alike. Each request in a stream is built from one rule (or from none, for misses); which rule
/// answers first is for the matcher under test to find.
///
/// ```swift
/// let workload = RuleWorkload(ruleCount: 1_000)
/// let engine = try ReplayEngine(rules: workload.rules)
/// for item in workload.stream(count: 1_000) { _ = engine.match(item.request) }
/// ```
public struct RuleWorkload: Sendable {
    /// The rules, in declared order.
    public let rules: [Rule]
    private let recipes: [RequestRecipe]
    private let origins: [String]

    /// How to build a request that a rule answers.
    private struct RequestRecipe: Sendable {
        var method: String
        /// `nil` for path and unanchored rules: any origin will do.
        var origin: String?
        /// A path with `{id}` where an identifier goes.
        var path: String
        /// A query parameter the rule requires.
        var requiredParameter: (String, String)?
    }

    private static let methods = ["GET", "POST", "PUT", "DELETE"]
    private static let assetKinds = ["js", "css", "png"]

    /// Generates `ruleCount` rules from `seed`.
    public init(ruleCount: Int, seed: UInt64 = 3, shape: WorkloadShape = WorkloadShape()) {
        var random = SeededRandom(seed: seed)
        let vocabulary = Vocabulary(shape: shape)
        let routes = Vocabulary.routes
        origins = vocabulary.origins
        var rules: [Rule] = [], recipes: [RequestRecipe] = []
        // URL rules walk host × route × method in a fixed order, so no two URL rules overlap.
        var urlRuleNumber = 0
        for number in 0..<ruleCount {
            let response = Response(status: 200, headers: [HeaderField("Content-Type", "application/json")],
                                    body: "{\"rule\":\(number)}")
            let priority: Int? = number % 25 == 24 ? 1 : nil
            if number % 50 == 49 {
                // No literal prefix: searched anywhere, tried for every request.
                let name = vocabulary.word(&random)
                rules.append(Rule(name: "export \(number)", method: "GET", pattern: "/\(name)/export\\.csv$",
                                  priority: priority, response: response))
                recipes.append(RequestRecipe(method: "GET", origin: nil, path: "/reports/{id}/\(name)/export.csv"))
            } else if number % 10 == 7 {
                // WireMock's `urlPathPattern` matches the whole path: anchored at both ends.
                let resource = "res\(number)"
                rules.append(Rule(name: "mapping \(number)", method: "GET",
                                  pattern: "^/api/\(resource)/[0-9]+/(items|orders)$", target: .path,
                                  priority: priority, response: response))
                recipes.append(RequestRecipe(method: "GET", origin: nil,
                                             path: "/api/\(resource)/{id}/" + (number % 20 == 7 ? "items" : "orders")))
            } else if number % 20 == 19 {
                let kind = Self.assetKinds[number % Self.assetKinds.count]
                let bundle = vocabulary.word(&random)
                rules.append(Rule(name: "asset \(number)", method: "GET",
                                  pattern: "^/assets/\(bundle)/v[0-9]+/[a-z0-9-]+\\.\(kind)$", target: .path,
                                  priority: priority, response: response))
                recipes.append(RequestRecipe(method: "GET", origin: nil, path: "/assets/\(bundle)/v{id}/main.\(kind)"))
            } else {
                let origin = origins[urlRuleNumber % origins.count]
                let route = routes[(urlRuleNumber / origins.count) % routes.count]
                let method = Self.methods[(urlRuleNumber / (origins.count * routes.count)) % Self.methods.count]
                let round = urlRuleNumber / (origins.count * routes.count * Self.methods.count)
                urlRuleNumber += 1
                let tenantRoute = round == 0 ? route : "/t\(round + 1)" + route
                let routePattern = tenantRoute.replacing("{id}", with: "[0-9]+")
                let requiresLanguage = number % 10 == 5
                let queryPattern = requiresLanguage ? "\\?(.*&)?lang=[a-z]{2}(&.*)?$" : "(\\?.*)?$"
                rules.append(Rule(name: "\(method) \(tenantRoute) \(number)", method: method,
                                  pattern: "^" + Self.escaped(origin) + routePattern + queryPattern,
                                  priority: priority, response: response))
                recipes.append(RequestRecipe(method: method, origin: origin, path: tenantRoute,
                                             requiredParameter: requiresLanguage ? ("lang", "en") : nil))
            }
        }
        self.rules = rules
        self.recipes = recipes
    }

    /// `count` requests, each built from a rule drawn uniformly (a share `missShare` built to match no
    /// rule: an unknown route on a known host), reproducible from `seed`.
    public func stream(count: Int, missShare: Double = 0, seed: UInt64 = 4) -> [RuleRequest] {
        guard !recipes.isEmpty else { return [] }
        var random = SeededRandom(seed: seed)
        let vocabulary = Vocabulary(shape: WorkloadShape())
        return (0..<count).map { _ in
            let id = "\(Int.random(in: 1...999_999, using: &random))"
            var query: [(String, String)] = (0..<Int.random(in: 0...3, using: &random)).map { offset in
                (["page", "sort", "fields"][offset], vocabulary.value(&random))
            }
            if Double.random(in: 0..<1, using: &random) < missShare {
                let origin = origins[Int.random(in: 0..<origins.count, using: &random)]
                let request = Request(method: "GET", url: origin + "/v9/unknown/\(id)" + Self.queryString(query))
                return RuleRequest(request: request, sourceRule: nil)
            }
            let ruleNumber = Int.random(in: 0..<recipes.count, using: &random)
            let recipe = recipes[ruleNumber]
            if let required = recipe.requiredParameter { query.append(required) }
            let origin = recipe.origin ?? origins[Int.random(in: 0..<origins.count, using: &random)]
            let body = recipe.method == "GET" || recipe.method == "DELETE" ? "" : "{\"id\":\(id)}"
            let headers = body.isEmpty ? [] : [HeaderField("Content-Type", "application/json")]
            let request = Request(method: recipe.method, url: origin + recipe.path.replacing("{id}", with: id)
                                      + Self.queryString(query), headers: headers, body: body)
            return RuleRequest(request: request, sourceRule: ruleNumber)
        }
    }

    private static func queryString(_ pairs: [(String, String)]) -> String {
        pairs.isEmpty ? "" : "?" + pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// `text` with the regular-expression metacharacters that occur in origins escaped.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if ".?+*()[]{}|^$\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}

/// One request of a rule stream.
public struct RuleRequest: Sendable {
    /// The request to send.
    public var request: Request
    /// The declared position of the rule it was built from, or `nil` for a request built to miss. The
    /// first rule to answer may be an earlier one with a wider pattern or a higher priority.
    public var sourceRule: Int?
}
