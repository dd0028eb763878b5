/// Ordered regex rules, compiled and indexed for lookup: a fixed list to hand to
/// ``Strategy/rules(_:)`` or to validate a rule file. Engines hold their own live rules
/// (``ReplayEngine/init(tracks:rules:strategy:configuration:)``, ``ReplayEngine/add(_:)-(Rule)``).
///
/// Evaluating every pattern for every request is what makes rule bundles slow at scale. Each rule is
/// filed under literal text every match of its pattern contains, and a request's URL is searched once
/// for all of those literals (`RuleShard`); only the rules whose literal it contains are then checked,
/// method and prefix with byte comparisons first, the expression last.
public struct RuleSet: Sendable {
    /// The rules in the order they are tried (see `RuleRank`).
    public let rules: [Rule]
    let store: LiveRules

    /// Compiles and indexes `rules`; fails on the first invalid pattern, naming the rule.
    public init(_ rules: [Rule]) throws(RuleError) {
        let store = LiveRules()
        try store.add(contentsOf: rules)
        let named = store.rules
        self.store = store
        self.rules = Rule.triedOrder(named).map { named[$0] }
    }

    /// Refuses `rule` as a rule set holding it alone would (its first pattern that does not compile,
    /// named as rule 1), without building the set: for a linter naming every refused rule of a file
    /// (loading stops at the first), which built an engine per rule.
    package static func check(_ rule: Rule) throws(RuleError) {
        var cache = PatternCache()
        _ = try LiveRules.compile(rule, sequence: 0, cache: &cache)
    }

    /// The compiled rules in the order they are tried.
    var compiled: [CompiledRule] { store.compiledInRankOrder }

    /// The first rule (by priority, then declared order) that answers `request`, with how many rules
    /// survived the prefilter.
    func firstMatch(for request: IncomingRequest) -> (rule: CompiledRule?, tried: Int) {
        store.firstMatch(for: request)
    }
}

/// Where a rule's literal prefix lets the rule set file it.
enum RuleBucket {
    case origin(String)
    case firstSegment(String)
    case none

    init(_ rule: CompiledRule) {
        let prefix = rule.literalPrefix
        switch rule.rule.target {
        case .url:
            // The origin is known when the prefix runs past "scheme://host" into the path.
            guard let schemeEnd = prefix.firstRange(of: "://"),
                let pathStart = prefix[schemeEnd.upperBound...].firstIndex(of: "/")
            else { self = .none; return }
            self = .origin(String(prefix[..<pathStart]))
        case .path:
            // The first segment is known when the prefix runs past it ("/users/" or "/users?").
            let segment = Self.firstSegment(of: prefix)
            guard prefix.utf8.count > segment.utf8.count, segment.utf8.count > 1 else { self = .none; return }
            self = .firstSegment(segment)
        }
    }

    /// "/users" for "/users/42"; the whole path when it has one segment.
    static func firstSegment(of path: String) -> String {
        let utf8 = path.utf8
        guard utf8.first == 0x2F, let end = utf8.dropFirst().firstIndex(where: { $0 == 0x2F || $0 == 0x3F })
        else { return path }
        return String(path[..<end])
    }
}
