/// Ordered regex rules, compiled and indexed for lookup.
///
/// Evaluating every pattern for every request is what makes rule bundles slow at scale. Each rule's
/// literal prefix (the text after `^` up to the first regex operator) places it in a bucket: by origin
/// (`https://api.example.com`) for URL patterns, by first path segment (`/users`) for path patterns.
/// A request looks only at the buckets for its own origin and first segment plus the rules with no
/// usable prefix, checks method and prefix with byte comparisons, and runs the expression last.
public struct RuleSet: Sendable {
    /// The rules in the order they are tried (by priority, then declared order).
    public let rules: [Rule]
    let compiled: [CompiledRule]
    /// Rule positions (into `compiled`) by origin, for URL-target rules whose prefix covers the origin.
    let byOrigin: [String: [Int]]
    /// Rule positions by first path segment, for path-target rules whose prefix covers it.
    let byFirstSegment: [String: [Int]]
    /// Rules with no usable prefix: tried for every request.
    let unbucketed: [Int]

    /// Compiles and indexes `rules`; fails on the first invalid pattern, naming the rule.
    public init(_ rules: [Rule]) throws(RuleError) {
        var compiled: [CompiledRule] = []
        for (offset, var rule) in rules.enumerated() {
            if rule.name.isEmpty { rule.name = "rule \(offset + 1)" }
            compiled.append(try CompiledRule(rule, declaredIndex: offset))
        }
        compiled = compiled.enumerated().sorted { lhs, rhs in
            let left = lhs.element.rule.priority ?? Rule.defaultPriority
            let right = rhs.element.rule.priority ?? Rule.defaultPriority
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        var byOrigin: [String: [Int]] = [:], byFirstSegment: [String: [Int]] = [:], unbucketed: [Int] = []
        for (position, rule) in compiled.enumerated() {
            switch RuleBucket(rule) {
            case .origin(let origin): byOrigin[origin, default: []].append(position)
            case .firstSegment(let segment): byFirstSegment[segment, default: []].append(position)
            case .none: unbucketed.append(position)
            }
        }
        self.compiled = compiled
        self.rules = compiled.map(\.rule)
        self.byOrigin = byOrigin
        self.byFirstSegment = byFirstSegment
        self.unbucketed = unbucketed
    }

    /// The first rule (by priority, then declared order) that answers `request`, with how many rules
    /// survived the prefilter.
    func firstMatch(for request: IncomingRequest) -> (rule: CompiledRule?, tried: Int) {
        let url = request.canonical.url
        let candidates = Self.mergeSorted(
            byOrigin[url.origin] ?? [], byFirstSegment[RuleBucket.firstSegment(of: url.path)] ?? [], unbucketed)
        guard !candidates.isEmpty else { return (nil, 0) }
        var urlTarget: String?
        var parts = LazyRequestParts(request)
        for position in candidates {
            let rule = compiled[position]
            let target: String
            switch rule.rule.target {
            case .path:
                target = url.path
            case .url:
                if urlTarget == nil { urlTarget = Rule.Target.url.text(of: url) }
                target = urlTarget ?? ""
            }
            if rule.matches(request, target: target, parts: &parts) { return (rule, candidates.count) }
        }
        return (nil, candidates.count)
    }

    /// The union of three ascending lists, ascending, so rules are still tried in priority order.
    private static func mergeSorted(_ a: [Int], _ b: [Int], _ c: [Int]) -> [Int] {
        if b.isEmpty && c.isEmpty { return a }
        if a.isEmpty && c.isEmpty { return b }
        if a.isEmpty && b.isEmpty { return c }
        return (a + b + c).sorted()
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
