import Synchronization

/// Compiled rules, indexed for lookup, that one writer adds and removes while any number of readers
/// match without locks: the rule stage of every engine, and the storage behind ``RuleSet``.
///
/// Each rule's literal prefix files it in one list (see ``RuleBucket``): one per origin, one per first
/// path segment, one for rules with no usable prefix. Each list is singly linked in ``RuleRank``
/// order; the writer inserts a rule by storing its link with releasing order, so a reader sees each
/// list before or after the insert, never in between. Removal marks the rule; readers skip it.
///
/// Matching does not walk those lists: rules are also grouped, by sequence number, into blocks
/// (``RuleShard``) that read the request's URL once for all their rules and name the few whose
/// required literal it contains. Blocks come in a few sizes (``defaultShardSizes``, each a multiple of
/// the last); block `j` of size `n` holds rules from `j × n`, up to `n` of them. Each time added rules
/// reach a boundary of the smallest size, one block is rebuilt to cover them (a block of at most the
/// largest size, so adding one rule never rebuilds the whole set) and published in place of the one
/// before; a set added at once gets the largest blocks that fit (``add(contentsOf:)``). A request reads
/// the largest published block at each point from rule 0, then checks the few rules after the last
/// block (fewer than the smallest size) one by one. The candidates are sorted by rank, so rules are
/// still tried in priority then added order. The lists serve the near-miss report, which reads them.
///
/// A replaced block stays allocated (a reader may hold it; `shards` never frees), so a live set pays
/// memory for about 20 rules' literals per rule added one at a time, on top of the current blocks.
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
    /// Block sizes, smallest first, each a multiple of the one before.
    private let shardSizes: [Int]
    /// Every block built, in the order built (superseded ones included: readers may still hold them).
    private let shards = GrowOnlyArray<RuleShard>()
    /// Per size, per block number: the index in `shards` of the published block, plus one.
    private let shardSlots: [AtomicSlots]

    /// The block sizes engines use: a request reads one block per 16,384 rules, and at most one more of
    /// each smaller size. One add in 16 builds a block: the partly filled block of 256 it extends, or
    /// one in 256 a block of up to 4,096, one in 4,096 one of up to 16,384: about 20 rules' literals
    /// per add on average.
    static let defaultShardSizes = [16, 256, 4_096, 16_384]

    /// What only the writer reads.
    private struct Writer {
        /// Per list: its last rule, so appending in rank order (the common case) takes no walk.
        var tails: [Int] = [-1]
        /// The tables of the patterns compiled so far, shared by later patterns that compile alike.
        var patterns = PatternCache()
    }

    /// An empty rule store whose blocks have `shardSizes` (smallest first, each a multiple of the last).
    init(shardSizes: [Int] = LiveRules.defaultShardSizes) {
        self.shardSizes = shardSizes
        shardSlots = shardSizes.map { _ in AtomicSlots() }
        listNames.append("")
    }

    /// The number of live rules.
    var count: Int { liveCount.load(ordering: .relaxed) }

    /// How many rules were ever added, removed ones included: one past the highest rule position.
    var positionCount: Int { entries.count }

    /// A bound on what matching one scalar of a request can cost across all these rules, in instruction
    /// visits off the load-time tables: 0 when every pattern runs on its table (the usual case).
    var worstVisitsPerScalar: Int { slowVisits.load(ordering: .relaxed) }

    /// Compiles `rule` (named `rule N`, N its 1-based sequence, when unnamed) and files it; returns its
    /// sequence number.
    func add(_ rule: Rule) throws(RuleError) -> Int {
        try writer.withLock { (writer: inout Writer) throws(RuleError) -> Int in
            let sequence = entries.count
            file(try Self.compile(rule, sequence: sequence, cache: &writer.patterns), writer: &writer)
            publishCompletedShards(endingAt: sequence + 1)
            return sequence
        }
    }

    /// Compiles and files `rules` in order, as ``add(_:)`` does one at a time, but builds each of their
    /// blocks once: from the first, the largest block size that fits, so loading a set builds no block
    /// it then supersedes (adding rules one at a time leaves every block it replaced allocated). All or
    /// nothing: every rule is compiled before any is filed, so when one does not compile none is added.
    /// Returns the sequence numbers the rules were given, in order.
    @discardableResult
    func add(contentsOf rules: [Rule]) throws(RuleError) -> Range<Int> {
        try writer.withLock { (writer: inout Writer) throws(RuleError) -> Range<Int> in
            let first = entries.count
            var compiled: [CompiledRule] = []
            compiled.reserveCapacity(rules.count)
            for rule in rules { compiled.append(try Self.compile(rule, sequence: first + compiled.count, cache: &writer.patterns)) }
            for rule in compiled { file(rule, writer: &writer) }
            publishCovering(from: first, to: entries.count)
            return first..<entries.count
        }
    }

    /// `rule` compiled as rule number `sequence` (named `rule N`, N its 1-based sequence, when unnamed).
    static func compile(_ rule: Rule, sequence: Int, cache: inout PatternCache) throws(RuleError) -> CompiledRule {
        var rule = rule
        if rule.name.isEmpty { rule.name = "rule \(sequence + 1)" }
        return try CompiledRule(rule, declaredIndex: sequence, cache: &cache)
    }

    /// Links `compiled`, the next rule in sequence, into its list; its blocks are the caller's to build.
    private func file(_ compiled: CompiledRule, writer: inout Writer) {
        let sequence = entries.count
        let list = self.list(for: RuleBucket(compiled), writer: &writer)
        let rank = RuleRank(compiled.rule, sequence: sequence)
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
    }

    /// Builds and publishes the block that rule `end - 1` completes, when it completes one: of the
    /// largest size whose boundary `end` is, that block full when it is the largest size, else the
    /// block of the next size up filled so far (which covers it, so readers would never read it).
    /// A partly filled block thus always ends on a boundary of the size below, and a request reads at
    /// most one block per size after the full ones.
    private func publishCompletedShards(endingAt end: Int) {
        guard let level = shardSizes.indices.last(where: { end % shardSizes[$0] == 0 }) else { return }
        guard level + 1 < shardSizes.count else {
            publishShard(level: level, start: end - shardSizes[level], count: shardSizes[level])
            return
        }
        let start = end / shardSizes[level + 1] * shardSizes[level + 1]
        publishShard(level: level + 1, start: start, count: end - start)
    }

    /// Publishes blocks over rules `start ..< end` as adding them one at a time would leave them, each
    /// built once: from the first boundary of the smallest size, at each point the largest block whose
    /// boundary it is, full when the rules reach its end, else filled to the last boundary of the size
    /// below (or a smaller block there, when that is none). Fewer rules than the smallest size are
    /// left to later adds.
    private func publishCovering(from start: Int, to end: Int) {
        var position = start
        // Up to the first boundary of the smallest size, blocks complete as single adds complete them.
        while position % shardSizes[0] != 0, position < end {
            position += 1
            publishCompletedShards(endingAt: position)
        }
        covering: while position < end {
            for level in shardSizes.indices.reversed() where position % shardSizes[level] == 0 {
                let size = shardSizes[level]
                let below = level > 0 ? shardSizes[level - 1] : size
                let count = position + size <= end ? size : (end - position) / below * below
                guard count > 0, level > 0 || count == size else { continue }
                publishShard(level: level, start: position, count: count)
                position += count
                continue covering
            }
            break
        }
    }

    /// Builds the block of size `shardSizes[level]` from `start`, holding its first `count` rules, then
    /// makes it visible to readers (in place of the block there before, which readers may still hold).
    private func publishShard(level: Int, start: Int, count: Int) {
        let size = shardSizes[level]
        let shard = RuleShard(start: start, rules: (start..<(start + count)).map { entries[$0].compiled })
        // The block is written and appended before its slot is stored with releasing order, so a reader
        // that loads the slot (acquiring) sees the block whole; its rules were published before it.
        let index = shards.append(shard)
        shardSlots[level].store(start / size, index + 1)
    }

    /// Calls `body` with the published blocks that cover rules from 0 on, in order, the largest at each
    /// point; returns the first rule no block covers.
    @inline(__always)
    private func forEachShard(_ body: (RuleShard) -> Void) -> Int {
        var position = 0
        var level = shardSizes.count - 1
        while level >= 0 {
            let size = shardSizes[level]
            if position % size == 0 {
                let slot = shardSlots[level].load(position / size)
                if slot != 0 {
                    let shard = shards[slot - 1]
                    body(shard)
                    position += shard.count
                    level = shardSizes.count - 1
                    continue
                }
            }
            level -= 1
        }
        return position
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
    /// survived the method and literal prefilters; scenario states are not looked at.
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
    /// later rule could).
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
    /// survived the method and literal prefilters (a candidate of its block, or after the last block,
    /// for the request's method, whose target has its literal prefix and required literal).
    private func forEachMatch(for request: IncomingRequest, priorityBelow bound: Int? = nil, _ body: (CompiledRule) -> Bool) -> Int {
        let url = request.canonical.url
        let path = url.path
        var urlTarget: String?
        var candidates = CandidateList()
        let firstUncovered = forEachShard { shard in
            if shard.hasURLRules, urlTarget == nil { urlTarget = Rule.Target.url.text(of: url) }
            Self.withUTF8(path) { pathBytes in
                if let urlTarget {
                    Self.withUTF8(urlTarget) { shard.collectCandidates(url: $0, path: pathBytes, into: &candidates) }
                } else {
                    shard.collectCandidates(url: nil, path: pathBytes, into: &candidates)
                }
            }
        }
        // Rules after the last block (fewer than the smallest block size) are each a candidate.
        let total = entries.count
        if firstUncovered < total { candidates.append(contentsOf: firstUncovered..<total) }
        var tried = 0
        var parts = LazyRequestParts(request)
        candidates.sortedForEach(by: { entries[$0].rank < entries[$1].rank }) { position in
            // Candidates are in rank order, so every later rule's priority is at least this one's.
            if let bound, entries[position].rank.priority >= bound { return false }
            guard removed.relaxedLoad(position) == 0 else { return true }
            let rule = entries[position].compiled
            // A set may hold the same pattern for several methods: the method is the cheaper test.
            guard rule.accepts(method: request.canonical.method) else { return true }
            let target: String
            switch rule.rule.target {
            case .path:
                target = path
            case .url:
                if urlTarget == nil { urlTarget = Rule.Target.url.text(of: url) }
                target = urlTarget ?? ""
            }
            guard rule.hasLiterals(in: target) else { return true }
            tried += 1
            return !rule.matchesGivenLiterals(request, target: target, parts: &parts) || body(rule)
        }
        return tried
    }

    /// Runs `body` on `text`'s UTF-8, in place when the string stores it contiguously (native strings do).
    @inline(__always)
    private static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
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
    /// How many live rules survived the method and literal prefilters.
    var tried = 0

    /// All of them, by rank.
    var all: [CompiledRule] { first.map { [$0] + later } ?? [] }
}
