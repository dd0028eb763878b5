import Synchronization

/// Compiled rules, indexed for lookup, that one writer adds and removes while any number of readers
/// match without locks: the rule stage of every engine, and the storage behind ``RuleSet``.
///
/// Each rule's literal prefix files it in one list (see ``RuleBucket``): one per origin, one per first
/// path segment, one for rules with no usable prefix. Each list is singly linked in ``RuleRank``
/// order; the writer inserts a rule by storing its link with releasing order, so a reader sees each
/// list before or after the insert, never in between. A request walks its origin's list, its first
/// segment's list and the unbucketed list, merged by rank, so rules are still tried in priority then
/// added order. Removal marks the rule; readers skip it.
final class LiveRules: Sendable {
    struct Entry: Sendable {
        let compiled: CompiledRule
        let rank: RuleRank
    }

    private let entries = GrowOnlyArray<Entry>()
    private let removed = AtomicSlots()
    /// Per rule: the next rule in its list, plus one.
    private let next = AtomicSlots()
    /// Per list: its first rule, plus one. List 0 holds the rules with no bucket.
    private let heads = AtomicSlots()
    private let byOrigin = KeyTable(capacityFor: 0)
    private let byFirstSegment = KeyTable(capacityFor: 0)
    /// Per list: the origin or first segment it stands for, to confirm a hash hit.
    private let listNames = GrowOnlyArray<String>()
    private let liveCount = Atomic<Int>(0)
    /// The sum of the live rules' ``CompiledRule/worstVisitsPerScalar``.
    private let slowVisits = Atomic<Int>(0)
    private let writer = Mutex(Writer())

    /// What only the writer reads.
    private struct Writer {
        /// Per list: its last rule, so appending in rank order (the common case) takes no walk.
        var tails: [Int] = [-1]
    }

    init() {
        listNames.append("")
    }

    /// The number of live rules.
    var count: Int { liveCount.load(ordering: .relaxed) }

    /// A bound on what matching one scalar of a request can cost across all these rules, in instruction
    /// visits off the load-time tables: 0 when every pattern runs on its table (the usual case).
    var worstVisitsPerScalar: Int { slowVisits.load(ordering: .relaxed) }

    /// Compiles `rule` (named `rule N`, N its 1-based sequence, when unnamed) and files it; returns its
    /// sequence number.
    func add(_ rule: Rule) throws(RuleError) -> Int {
        try writer.withLock { (writer: inout Writer) throws(RuleError) -> Int in
            let sequence = entries.count
            var rule = rule
            if rule.name.isEmpty { rule.name = "rule \(sequence + 1)" }
            let compiled = try CompiledRule(rule, declaredIndex: sequence)
            let list = self.list(for: RuleBucket(compiled), writer: &writer)
            let rank = RuleRank(rule, sequence: sequence)
            entries.append(Entry(compiled: compiled, rank: rank))
            let tail = writer.tails[list]
            if tail < 0 || entries[tail].rank < rank {
                link(sequence, after: tail, in: list)
                writer.tails[list] = sequence
            } else {
                var previous = -1
                var candidate = firstRule(inList: list)
                while let current = candidate, entries[current].rank < rank {
                    previous = current
                    candidate = following(current)
                }
                link(sequence, after: previous, in: list)
            }
            liveCount.add(1, ordering: .relaxed)
            slowVisits.add(compiled.worstVisitsPerScalar, ordering: .relaxed)
            return sequence
        }
    }

    /// Marks rule `sequence` removed; `false` when there is none or it already was.
    func remove(_ sequence: Int) -> Bool {
        writer.withLock { _ in
            guard sequence >= 0, sequence < entries.count, removed.load(sequence) == 0 else { return false }
            removed.store(sequence, 1)
            liveCount.subtract(1, ordering: .relaxed)
            slowVisits.subtract(entries[sequence].compiled.worstVisitsPerScalar, ordering: .relaxed)
            return true
        }
    }

    /// The live rules in the order they were added.
    var rules: [Rule] {
        (0..<entries.count).filter { removed.load($0) == 0 }.map { entries[$0].compiled.rule }
    }

    /// The live rules in the order they were added, with their sequence numbers.
    var numberedRules: [(sequence: Int, rule: Rule)] {
        (0..<entries.count).filter { removed.load($0) == 0 }.map { ($0, entries[$0].compiled.rule) }
    }

    /// The live compiled rules in the order they are tried.
    var compiledInRankOrder: [CompiledRule] {
        (0..<entries.count).filter { removed.load($0) == 0 }.map { entries[$0] }
            .sorted { $0.rank < $1.rank }.map(\.compiled)
    }

    /// Inserts `sequence` after `previous` (or first, when -1): its own link first, then the link to
    /// it, with releasing order.
    private func link(_ sequence: Int, after previous: Int, in list: Int) {
        let following = previous < 0 ? heads.load(list) : next.load(previous)
        next.store(sequence, following)
        if previous < 0 { heads.store(list, sequence + 1) } else { next.store(previous, sequence + 1) }
    }

    private func list(for bucket: RuleBucket, writer: inout Writer) -> Int {
        let table: KeyTable, name: String
        switch bucket {
        case .none: return 0
        case .origin(let origin): (table, name) = (byOrigin, origin)
        case .firstSegment(let segment): (table, name) = (byFirstSegment, segment)
        }
        if let list = list(named: name, in: table) { return list }
        let list = listNames.append(name)
        writer.tails.append(-1)
        table.insert(xxh3(name), group: list)
        return list
    }

    @inline(__always)
    private func list(named name: String, in table: KeyTable) -> Int? {
        table.group(for: xxh3(name)) { listNames[$0] == name }
    }

    @inline(__always)
    private func firstRule(inList list: Int) -> Int? {
        let link = heads.load(list)
        return link == 0 ? nil : link - 1
    }

    @inline(__always)
    private func following(_ sequence: Int) -> Int? {
        let link = next.load(sequence)
        return link == 0 ? nil : link - 1
    }

    /// The first live rule, by rank, whose conditions hold for `request`, with how many live rules
    /// survived the bucket filter; scenario states are not looked at.
    func firstMatch(for request: IncomingRequest) -> (rule: CompiledRule?, tried: Int) {
        var found: CompiledRule?
        let tried = forEachMatch(for: request) { rule in
            found = rule
            return false
        }
        return (found, tried)
    }

    /// The rules that may answer `request` once scenario states are known: those whose conditions hold,
    /// by rank, up to and including the first without a scenario (which answers in any state, so no
    /// later rule could). Allocates nothing when the first is without a scenario.
    /// With `priorityBelow`, only rules whose priority is lower than it are looked at.
    func candidates(for request: IncomingRequest, priorityBelow bound: Int? = nil) -> RuleCandidates {
        var candidates = RuleCandidates()
        candidates.tried = forEachMatch(for: request, priorityBelow: bound) { rule in
            if candidates.first == nil { candidates.first = rule } else { candidates.later.append(rule) }
            return rule.rule.scenario != nil
        }
        return candidates
    }

    /// Calls `body` with each live rule, by rank, whose conditions hold for `request`, while it returns
    /// `true`, stopping at the first whose priority is not below `bound`; returns how many live rules
    /// survived the bucket filter.
    private func forEachMatch(for request: IncomingRequest, priorityBelow bound: Int? = nil, _ body: (CompiledRule) -> Bool) -> Int {
        let url = request.canonical.url
        var origin = list(named: url.origin, in: byOrigin).flatMap(firstRule(inList:))
        var segment = list(named: RuleBucket.firstSegment(of: url.path), in: byFirstSegment)
            .flatMap(firstRule(inList:))
        var unbucketed = firstRule(inList: 0)
        var tried = 0
        var urlTarget: String?
        var parts = LazyRequestParts(request)
        while true {
            // The lowest-ranked head of the three lists is the next rule in priority order.
            var pick = origin
            if let candidate = segment, pick.map({ entries[candidate].rank < entries[$0].rank }) ?? true {
                pick = candidate
            }
            if let candidate = unbucketed, pick.map({ entries[candidate].rank < entries[$0].rank }) ?? true {
                pick = candidate
            }
            guard let position = pick else { break }
            // The lists are merged in rank order, so every later rule's priority is at least this one's.
            if let bound, entries[position].rank.priority >= bound { break }
            if position == origin {
                origin = following(position)
            } else if position == segment {
                segment = following(position)
            } else {
                unbucketed = following(position)
            }
            guard removed.relaxedLoad(position) == 0 else { continue }
            tried += 1
            let rule = entries[position].compiled
            let target: String
            switch rule.rule.target {
            case .path:
                target = url.path
            case .url:
                if urlTarget == nil { urlTarget = Rule.Target.url.text(of: url) }
                target = urlTarget ?? ""
            }
            if rule.matches(request, target: target, parts: &parts), !body(rule) { break }
        }
        return tried
    }

    /// Up to `limit` live rules to compare with a request that missed, with their ranks: first those of
    /// the request's origin, first path segment and the unbucketed list (where an answer could have come
    /// from), then the others in added order (a rule filed under a mistyped segment is the closest one
    /// to explain). Reads at most `limit` rules of each list plus `limit` others, whatever the set's size.
    func nearMissCandidates(for request: IncomingRequest, limit: Int) -> [Entry] {
        let url = request.canonical.url
        var seen = Set<Int>()
        var result: [Entry] = []
        let lists = [
            list(named: url.origin, in: byOrigin), list(named: RuleBucket.firstSegment(of: url.path), in: byFirstSegment), 0,
        ]
        for list in lists.compactMap({ $0 }) {
            var position = firstRule(inList: list)
            while let current = position, result.count < limit {
                if removed.relaxedLoad(current) == 0, seen.insert(current).inserted { result.append(entries[current]) }
                position = following(current)
            }
        }
        var sequence = 0
        let total = entries.count
        while result.count < limit, sequence < total {
            if removed.relaxedLoad(sequence) == 0, seen.insert(sequence).inserted { result.append(entries[sequence]) }
            sequence += 1
        }
        return result
    }

    /// The answer of the first live rule that matches `request` (its scenario, if any, in the state it
    /// needs in `scenarios`, decided for all candidates in one atomic step), or why none does.
    /// With `priorityBelow`, only rules whose priority is lower than it may answer.
    func match(_ request: IncomingRequest, scenarios: ScenarioStates, priorityBelow bound: Int? = nil) -> StrategyOutcome {
        let candidates = candidates(for: request, priorityBelow: bound)
        guard let first = candidates.first else {
            return .miss(.noRuleMatched(ruleCount: count, rulesTried: candidates.tried))
        }
        if first.rule.scenario == nil { return .hit(Self.hit(first, for: request)) }
        let all = candidates.all
        switch scenarios.takeFirst(all.map(\.rule.scenario), stub: { Self.stubLabel(all[$0]) }) {
        case .chosen(let offset): return .hit(Self.hit(all[offset], for: request))
        case .noneMay(let mismatches): return .miss(.scenarioStateMismatch(mismatches))
        }
    }

    /// `rule "pay"`, as misses name a rule.
    static func stubLabel(_ rule: CompiledRule) -> String {
        "rule \(rule.rule.name.debugDescription)"
    }

    /// What `rule` answers `request` with.
    static func hit(_ compiled: CompiledRule, for request: IncomingRequest) -> Hit {
        let rule = compiled.rule
        let track = Track(
            request: request.request, outcome: rule.outcome, name: rule.name, delay: rule.delay, scenario: rule.scenario)
        return Hit(track: track, source: .rule(name: rule.name, position: compiled.declaredIndex))
    }
}

/// The rules whose conditions hold for a request, as ``LiveRules/candidates(for:)`` finds them.
struct RuleCandidates {
    /// The first, by rank.
    var first: CompiledRule?
    /// The others, by rank (only when the first has a scenario).
    var later: [CompiledRule] = []
    /// How many live rules survived the bucket filter.
    var tried = 0

    /// All of them, by rank.
    var all: [CompiledRule] { first.map { [$0] + later } ?? [] }
}
