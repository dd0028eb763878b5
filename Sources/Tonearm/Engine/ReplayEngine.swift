/// Answers requests from recorded tracks under one strategy, then from rules: the heart of Tonearm.
///
/// ```swift
/// let engine = try ReplayEngine(tracks: tracks, rules: rules, strategy: .uniquePlay)
/// switch engine.match(request) {
/// case .hit(let hit): deliver(hit.track.outcome)
/// case .miss(let report): print(report)   // the closest tracks and what differs
/// }
/// ```
///
/// The engine is `Sendable` and live: call `match` from any number of tasks while others ``add(_:)-(Track)``
/// and ``remove(_:)`` tracks and rules. Matching never takes a lock; adds and removals are serialised
/// among themselves. The engine canonicalises each request once, finds tracks by key in O(1) on
/// average, and builds a miss report only when a request misses.
///
/// What an added track means depends on the strategy: under ``Strategy/repeat`` it answers its key only
/// if no earlier live track has the same key; under ``Strategy/fifo(whenExhausted:)`` and
/// ``Strategy/uniquePlay`` it joins the back of its key's queue (an exhausted key answers again); under
/// ``Strategy/strictOrder`` it joins the end of the expected order. An added rule takes its place by
/// priority, after the rules of equal priority already there.
///
/// Tracks and rules may take part in stateful scenarios (``ScenarioStep``): a track with a scenario is a
/// stub that every strategy steps over; when the strategy has no answer, the request's scenario tracks
/// and then its rules are tried, and the first whose scenario is in its required state answers and
/// moves the scenario on, in one atomic step. See ``scenarios`` for reading and setting states.
public final class ReplayEngine: Sendable {
    /// Names a track or rule added to an engine, for ``ReplayEngine/remove(_:)``.
    public struct EntryID: Hashable, Sendable, CustomStringConvertible {
        enum Kind: Hashable, Sendable {
            case track
            case rule
        }

        let kind: Kind
        /// The track's position, or the rule's sequence number (its place in added order).
        let number: Int

        /// `track #3` or `rule #0`.
        public var description: String { "\(kind == .track ? "track" : "rule") #\(number)" }

        /// The track's position, for a track's id; `nil` for a rule's.
        package var trackPosition: Int? { kind == .track ? number : nil }
    }

    /// The indexed tracks.
    public let index: TrackIndex
    /// The live strategy answering from the tracks.
    public let strategy: any MatchingStrategy
    /// Rules, tried after the tracks.
    let ruleStage: LiveRules
    /// How often each track and rule answered.
    private let plays = PlayCounts()
    /// `strategy`, when it decides from keys alone (every built-in track strategy): then a hit needs no
    /// canonical form.
    private let keyedStrategy: KeyedStrategy

    /// An engine over `tracks`, keyed under `configuration`, answering by `strategy`, with no rules
    /// (add some with ``add(_:)-(Rule)``).
    public convenience init(
        tracks: [Track] = [], strategy: Strategy = .repeat, configuration: MatchingConfiguration = .default
    ) {
        self.init(tracks: tracks, ruleStage: LiveRules(), strategy: strategy, configuration: configuration)
    }

    /// An engine answering from `tracks` under `strategy`, then from `rules` (by priority, then declared
    /// order), keyed under `configuration`: the one way tracks and rules are put together.
    ///
    /// - Throws: ``RuleError`` naming the first rule whose pattern does not compile.
    public convenience init(
        tracks: [Track] = [], rules: [Rule], strategy: Strategy = .repeat,
        configuration: MatchingConfiguration = .default
    ) throws(RuleError) {
        let ruleStage = LiveRules()
        try ruleStage.add(contentsOf: rules)
        self.init(tracks: tracks, ruleStage: ruleStage, strategy: strategy, configuration: configuration)
    }

    /// An engine over the tracks `build` hands to `add`, in order, keyed under `configuration`,
    /// answering by `strategy`, with no rules yet: how a loader indexes a cassette as it reads it,
    /// without an array of its tracks.
    package convenience init<Failure: Error>(
        strategy: Strategy = .repeat, configuration: MatchingConfiguration = .default,
        building build: (_ add: (Track) -> Void) throws(Failure) -> Void
    ) throws(Failure) {
        let index = try TrackIndex(canonicalizer: RequestCanonicalizer(configuration), building: build)
        self.init(index: index, ruleStage: LiveRules(), strategy: strategy)
    }

    private convenience init(tracks: [Track], ruleStage: LiveRules, strategy: Strategy, configuration: MatchingConfiguration) {
        let index = TrackIndex(tracks: tracks, canonicalizer: RequestCanonicalizer(configuration))
        self.init(index: index, ruleStage: ruleStage, strategy: strategy)
    }

    private init(index: TrackIndex, ruleStage: LiveRules, strategy: Strategy) {
        self.index = index
        self.strategy = strategy.make(index)
        self.keyedStrategy = KeyedStrategy(self.strategy)
        self.ruleStage = ruleStage
    }

    /// The canonicalizer keys are made with.
    public var canonicalizer: RequestCanonicalizer { index.canonicalizer }

    /// The live tracks, in the order they were added (a snapshot).
    public var tracks: [Track] { index.tracks }

    /// The live rules, in the order they were added (a snapshot).
    public var rules: [Rule] { ruleStage.rules }

    /// How many rules are live (no snapshot taken).
    package var ruleCount: Int { ruleStage.count }

    /// A bound on the instruction visits matching one scalar of a request against all of this engine's
    /// rules can cost off their load-time tables: 0 while every rule's patterns run on their tables (the
    /// usual case). Matching a request of n bytes costs at most about n × this plus the table reads.
    package var worstPatternVisitsPerScalar: Int { ruleStage.worstVisitsPerScalar }

    /// Adds `track` behind every track already there; see the type's documentation for what it means
    /// under each strategy.
    @discardableResult
    public func add(_ track: Track) -> EntryID {
        EntryID(kind: .track, number: index.add(track))
    }

    /// Adds `track`, just recorded from the network for a request that missed, counting it as played
    /// once by that request: under ``Strategy/repeat`` later identical requests replay it; under
    /// ``Strategy/fifo(whenExhausted:)`` they replay it once the queue before it has played (it is the
    /// last track, repeated); under ``Strategy/uniquePlay`` it never answers (every identical request
    /// goes to the network and is recorded in turn); under ``Strategy/strictOrder`` it is appended to
    /// the order and already consumed. ``reset()`` makes it playable like any other track.
    @discardableResult
    public func add(_ track: Track, playedByRecordingRequest: Bool) -> EntryID {
        EntryID(kind: .track, number: index.add(track, played: playedByRecordingRequest))
    }

    /// Compiles `rule` and adds it after the rules of equal priority; named `rule N` (N its 1-based
    /// place among every rule added) when unnamed.
    ///
    /// - Throws: ``RuleError`` when its pattern does not compile; nothing is added then.
    @discardableResult
    public func add(_ rule: Rule) throws(RuleError) -> EntryID {
        EntryID(kind: .rule, number: try ruleStage.add(rule))
    }

    /// Compiles `rules` and adds them in order, as that many ``add(_:)-(Rule)`` calls would (the same
    /// names, ranks and ids), but indexes them once for all: the way to load many rules into a live
    /// engine. Adding rules one at a time rebuilds the index blocks they complete as they go, and the
    /// blocks replaced stay allocated (a request being matched may hold them): thousands of rules added
    /// one by one take longer, and keep more memory, than the same rules added at once.
    ///
    /// - Returns: the rules' ids, in the order of `rules`.
    /// - Throws: ``RuleError`` naming the first rule whose pattern does not compile; none is added then.
    @discardableResult
    public func add(contentsOf rules: [Rule]) throws(RuleError) -> [EntryID] {
        try ruleStage.add(contentsOf: rules).map { EntryID(kind: .rule, number: $0) }
    }

    /// Removes a track or rule added to this engine; `false` when `id` names nothing live here.
    /// Requests being matched at that moment may still get its answer.
    @discardableResult
    public func remove(_ id: EntryID) -> Bool {
        switch id.kind {
        case .track: index.remove(position: id.number)
        case .rule: ruleStage.remove(id.number)
        }
    }

    /// The answer for `request`, or a report of why there is none.
    public func match(_ request: Request) -> MatchResult {
        let incoming: IncomingRequest
        let reason: MissReason
        let canonicalizer = index.canonicalizer
        if keyedStrategy.decidesByKey, !canonicalizer.keyNeedsCanonicalForm(request) {
            // The key alone decides a hit; the canonical form is made only for a miss.
            let key = canonicalizer.key(for: request)
            switch keyedStrategy.match(key: key, request: request) {
            case .hit(let hit):
                plays.count(hit.source)
                return .hit(hit)
            case .miss(let trackReason):
                reason = trackReason
            }
            incoming = IncomingRequest(request: request, canonical: canonicalizer.canonicalize(request), key: key)
        } else {
            return match(incomingRequest(for: request))
        }
        return stubStage(incoming, strategyReason: reason)
    }

    /// The answer for a request whose canonical form and key are already worked out (a caller that
    /// looked at the request first, such as a stub server ranking its stubs, need not redo that).
    package func match(_ incoming: IncomingRequest) -> MatchResult {
        switch strategy.match(incoming) {
        case .hit(let hit):
            plays.count(hit.source)
            return .hit(hit)
        case .miss(let trackReason):
            return stubStage(incoming, strategyReason: trackReason)
        }
    }

    private func stubStage(_ incoming: IncomingRequest, strategyReason reason: MissReason) -> MatchResult {
        switch StubStage.match(incoming, strategyReason: reason, index: index, rules: ruleStage) {
        case .hit(let hit):
            plays.count(hit.source)
            return .hit(hit)
        case .miss(let stubReason):
            return .miss(report(for: incoming, reason: stubReason))
        }
    }

    /// How often each track and rule has answered since the engine was made (``reset()`` rewinds the
    /// strategies, not these counts): what tells a recording nothing replays from one that is used.
    public func usage() -> EngineUsage {
        EngineUsage(
            trackPlays: plays.trackPlays(count: index.positionCount), rulePlays: plays.rulePlays(count: ruleStage.positionCount))
    }

    /// Counts an answer the engine gave outside ``match(_:)-(Request)`` (a stub server's ranked answer).
    func countPlay(_ hit: Hit) {
        plays.count(hit.source)
    }

    /// The canonical form and key `request` is matched by.
    public func incomingRequest(for request: Request) -> IncomingRequest {
        let canonical = index.canonicalizer.canonicalize(request)
        return IncomingRequest(request: request, canonical: canonical, key: RequestKey(canonicalBytes: canonical.bytes))
    }

    /// Returns the engine to its initial state: every track playable again (including tracks that
    /// counted as played by their recording), strict order rewound, every scenario back in
    /// ``ScenarioStep/startedState``.
    public func reset() {
        index.clearPlayedMarks()
        strategy.reset()
        index.scenarioStates.resetAll()
    }

    /// The miss report for `incoming`: the nearest tracks and, when there are rules, the nearest rules.
    func report(for incoming: IncomingRequest, reason: MissReason) -> MissReport {
        let (nearest, compared) = NearMissFinder.nearest(to: incoming.canonical, in: index)
        var report = MissReport(
            request: incoming.request, canonical: incoming.canonical, key: incoming.key, reason: reason,
            nearest: nearest, candidatesCompared: compared)
        if ruleStage.count > 0 {
            (report.nearestRules, report.rulesCompared) = RuleNearMissFinder.nearest(
                to: incoming, in: ruleStage, states: index.scenarioStates)
        }
        return report
    }
}
