import Foundation
import Synchronization
import Tonearm
import TonearmServer
import TonearmCassettes

/// The stub mappings a server holds for WireMock clients: those loaded from `--root-dir` (the
/// defaults `POST /__admin/mappings/reset` returns to) and those added through `/__admin/mappings`.
///
/// Every mapping lives in one live ``ReplayEngine`` keyed as WireMock matches (method, path, query,
/// body; no host): exact mappings are tracks found by key in O(1), the others rules. WireMock's order is
/// kept: among exact mappings for one request the newest answers (older ones are taken out of the engine
/// and put back when the newer one is removed), and among rules of equal priority the newest is tried
/// first.
///
/// A removed entry keeps its slot in the engine (so that matching never locks), so once removed entries
/// outnumber live ones (and at least ``compactionFloor`` of them), the live ones are copied into a fresh
/// engine that replaces the old one: memory stays proportional to the live mappings over any number of
/// create/delete cycles, at an amortised O(1) per removal. Scenario states are carried over; a scenario
/// step taken by a request being matched on the old engine while the copy is made may be lost.
final class WireMockStubs: Sendable {
    /// How many removed entries the engine may hold before it is compacted, whatever the live count.
    static let defaultCompactionFloor = 1024
    /// This store's floor: ``defaultCompactionFloor`` in servers, lower in tests that compact often.
    let compactionFloor: Int

    /// The engine answering requests: mutated only under `state`'s lock, matched without it (reading
    /// which engine is current takes a brief lock of its own, as compaction replaces it).
    var engine: ReplayEngine { current.withLock { $0 } }
    /// `--root-dir`: where defaults are loaded from and `save` writes.
    let rootDirectory: WireMockRootDirectory?
    /// When the server started, for health's uptime.
    let started = ContinuousClock.now
    /// The first 24 hex digits of this server's serve-event ids.
    let eventIDPrefix = WireMockServeEvents.makePrefix()
    /// How many mappings there are, read on every request without the lock: none means no lookup.
    private let count = Atomic<Int>(0)
    /// The per-request settings of the mappings that have them, by id, apart from `state` so that
    /// answering never waits for an admin call; `settingsCount` lets the others skip the lookup.
    private let settings = Mutex<[String: WireMockResponseSettings]>([:])
    private let settingsCount = Atomic<Int>(0)
    /// Set once a mapping matching on the client's address (`clientIp`) is added, and never cleared:
    /// until then requests are matched without the address field, which no other mapping reads.
    private let clientAddressRead = Atomic<Bool>(false)
    /// How mappings are read: `__files`, and whether every response is a template.
    let reading: WireMockMappingReading
    private let current = Mutex(ReplayEngine(strategy: .repeat, configuration: WireMockFormat.configuration))
    private let state: Mutex<State>

    private struct Stored: Sendable {
        var mapping: WireMockMapping
        /// The engine entry while the mapping is live (an exact mapping shadowed by a newer one has none).
        var entry: ReplayEngine.EntryID?
        /// When it was added, counting every mapping added: WireMock's order (newest first in listings).
        var sequence: Int
        /// When `entry` was added to the engine, counting every engine addition: the order compaction
        /// adds the live entries in, so the fresh engine tries them as the old one did.
        var addedToEngine = 0
        /// Where an exact mapping stands among those for the same request.
        var slot: ExactSlot?
    }

    /// Exact mappings for one request: a newer one replaces an older one only when both answer in the
    /// same scenario state (WireMock scenarios stub one URL once per state).
    private struct ExactSlot: Hashable, Sendable {
        var key: RequestKey
        var scenario: String?
        var requiredState: String?
    }

    private struct State: Sendable {
        var mappings: [String: Stored] = [:]
        /// Exact mappings per request and scenario step, oldest first; the last is the live one.
        var owners: [ExactSlot: [String]] = [:]
        var insertions = 0
        var engineAdditions = 0
        /// Entries live in the engine, and entries removed from it since it was last compacted.
        var liveEntries = 0
        var removedEntries = 0
        /// The mappings loaded from the root directory.
        var defaults: [WireMockMapping] = []
        /// `/__admin/settings`: delays added to every mapping's answer, and extension settings.
        var globalSettings = WireMockGlobalSettings()
    }

    /// A store holding the mappings of `rootDirectory`, if any.
    init(
        rootDirectory: WireMockRootDirectory?, _ wireMock: ServerConfiguration.WireMock = .init(),
        compactionFloor: Int = defaultCompactionFloor
    ) throws(ServerError) {
        self.rootDirectory = rootDirectory
        reading = WireMockMappingReading(bodyFiles: rootDirectory?.bodyFiles, wireMock)
        self.compactionFloor = max(1, compactionFloor)
        state = Mutex(State(defaults: try rootDirectory?.load() ?? []))
        do throws(WireMockError) {
            try reset(to: nil)
        } catch {
            throw .invalid(what: "WireMock mapping", value: error.pointer ?? "", expected: error.detail)
        }
    }

    /// The `__files` folder `bodyFileName` is read from, when the server has a root directory.
    var bodyFiles: URL? { rootDirectory?.bodyFiles }

    /// The `mappings` folder persistent mappings are written to, when the server has a root directory.
    var mappingsFolder: URL? { rootDirectory?.mappingsFolder }

    /// Whether a mapping has matched on the client's address (`clientIp`) since the server started.
    var readsClientAddress: Bool { clientAddressRead.load(ordering: .relaxed) }

    /// Whether any mapping is held (a lock-free read, so servers without mappings pay nothing).
    var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    // MARK: Changing mappings

    /// Adds `mapping`, replacing one with the same id; a `persistent` one is written to the root
    /// directory at once (and is a default from then on), as WireMock does.
    func add(_ mapping: WireMockMapping) throws(WireMockError) {
        try state.withLock { state throws(WireMockError) in
            if state.mappings[mapping.id] != nil { remove(mapping.id, from: &state) }
            try insert(mapping, into: &state)
            if mapping.isPersistent, let rootDirectory, let saved = try rootDirectory.save([mapping]).first {
                state.mappings[mapping.id]?.mapping = saved
            }
        }
    }

    /// Adds `mappings` in order, as that many ``add(_:)`` calls would (a later one replaces an earlier
    /// one with the same id, a `persistent` one is written at once), but their rules go into the engine
    /// together (see ``insert(contentsOf:into:afterEach:)``). With `ignoringDuplicates`, a mapping
    /// whose id is held already (or was earlier in `mappings`) is left out instead.
    func add(contentsOf mappings: [WireMockMapping], ignoringDuplicates: Bool = false) throws(WireMockError) {
        try state.withLock { state throws(WireMockError) in
            let wanted = ignoringDuplicates ? Self.firstOfEachID(mappings, leavingOut: state.mappings) : mappings
            try insert(contentsOf: wanted, into: &state, replacingHeldIDs: true) { mapping, state throws(WireMockError) in
                if mapping.isPersistent, let rootDirectory, let saved = try rootDirectory.save([mapping]).first {
                    state.mappings[mapping.id]?.mapping = saved
                }
            }
        }
    }

    /// The mappings of `mappings` whose id neither `held` nor an earlier one of them has.
    private static func firstOfEachID(_ mappings: [WireMockMapping], leavingOut held: [String: Stored]) -> [WireMockMapping] {
        var seen = Set<String>()
        return mappings.filter { held[$0.id] == nil && seen.insert($0.id).inserted }
    }

    /// Replaces the mapping `id`; `false` when there is none. A `persistent` replacement is written over
    /// the file the mapping came from (a new file when it had none of its own), as WireMock does: a new
    /// file beside the old one left the old content to come back at the next reset.
    func replace(_ mapping: WireMockMapping) throws(WireMockError) -> Bool {
        try state.withLock { state throws(WireMockError) in
            guard let previous = state.mappings[mapping.id] else { return false }
            remove(mapping.id, from: &state)
            try insert(mapping, into: &state)
            if mapping.isPersistent, let rootDirectory {
                var replacement = mapping
                replacement.file = previous.mapping.file.flatMap { $0.isShared ? nil : $0 }
                if let saved = try rootDirectory.save([replacement]).first { state.mappings[mapping.id]?.mapping = saved }
            }
            return true
        }
    }

    /// Removes the mapping `id`; `false` when there is none.
    func remove(_ id: String) throws(WireMockError) -> Bool {
        try state.withLock { state throws(WireMockError) in
            guard state.mappings[id] != nil else { return false }
            try removeWithSavedFiles([id], onlyPersistent: true, from: &state)
            return true
        }
    }

    /// Removes every mapping whose request pattern is `request` (as JSON, members in any order); returns
    /// how many.
    @discardableResult
    func remove(withRequest request: JSONValue) throws(WireMockError) -> Int {
        let wanted = request.canonicalText
        return try state.withLock { state throws(WireMockError) in
            let doomed = Self.inOrder(state).filter { $0.mapping.json[member: "request"]?.canonicalText == wanted }.map(\.mapping.id)
            try removeWithSavedFiles(doomed, onlyPersistent: true, from: &state)
            return doomed.count
        }
    }

    /// Removes the mappings whose metadata `matches`; returns how many.
    @discardableResult
    func remove(where matches: (JSONValue?) -> Bool) throws(WireMockError) -> Int {
        try state.withLock { state throws(WireMockError) in
            let doomed = Self.inOrder(state).filter { matches($0.mapping.metadata) }.map(\.mapping.id)
            try removeWithSavedFiles(doomed, onlyPersistent: true, from: &state)
            return doomed.count
        }
    }

    /// Removes every mapping.
    func removeAll() throws(WireMockError) {
        try state.withLock { state throws(WireMockError) in
            try removeWithSavedFiles(Array(state.mappings.keys), onlyPersistent: false, from: &state)
            compact(&state)
        }
    }

    /// Removes the mappings `ids` and the files they were loaded from or saved to, as WireMock does:
    /// removing one mapping deletes its file when it is persistent (saved, or `"persistent": true`),
    /// removing them all deletes every mapping's file.
    private func removeWithSavedFiles(_ ids: [String], onlyPersistent: Bool, from state: inout State) throws(WireMockError) {
        let files = ids.compactMap { id in
            state.mappings[id].flatMap { !onlyPersistent || $0.mapping.isPersistent ? $0.mapping.file : nil }
        }
        for id in ids { remove(id, from: &state) }
        try rootDirectory?.delete(files)
    }

    /// Back to the mappings in the root directory as it is now (files added since the start load too),
    /// every scenario in its `Started` state: WireMock's `resetToDefault`.
    func resetToDefaults() throws(WireMockError) {
        guard let rootDirectory else { return try reset(to: nil) }
        let loaded: [WireMockMapping]
        do throws(ServerError) {
            loaded = try rootDirectory.load()
        } catch {
            throw WireMockError(status: 422, pointer: nil, title: "Invalid mapping file", detail: "\(error)")
        }
        try reset(to: loaded)
    }

    /// Replaces every mapping with `defaults` (the ones loaded last when `nil`).
    private func reset(to defaults: [WireMockMapping]?) throws(WireMockError) {
        try state.withLock { state throws(WireMockError) in
            if let defaults { state.defaults = defaults }
            for id in Array(state.mappings.keys) { remove(id, from: &state) }
            compact(&state)
            try insert(contentsOf: state.defaults, into: &state, replacingHeldIDs: false)
            engine.resetScenarios()
        }
    }

    /// Writes every mapping that has no file yet into the root directory's `mappings` folder; every
    /// mapping is `"persistent": true` from then on, as WireMock marks them.
    func save() throws(WireMockError) {
        guard let rootDirectory else {
            throw .invalid(nil, "No root directory", detail: "start the server with --root-dir DIR to save mappings into DIR/mappings")
        }
        try state.withLock { state throws(WireMockError) in
            let all = Self.inOrder(state).map(\.mapping.markedPersistent)
            let saved = try rootDirectory.save(all.filter { $0.file == nil })
            for mapping in all + saved { state.mappings[mapping.id]?.mapping = mapping }
        }
    }

    /// The global settings (`/__admin/settings`).
    var globalSettings: WireMockGlobalSettings {
        get { state.withLock { $0.globalSettings } }
        set { state.withLock { $0.globalSettings = newValue } }
    }

    /// Inserts `mappings` in order as ``insert(_:into:prepared:)`` one at a time would (calling
    /// `afterEach` after each), leaving the engine and `state` as that would, but adds the rules of each
    /// run of mappings to the engine in one batch first (``ReplayEngine/add(contentsOf:)``), each ranked
    /// as its place in the run will make it: a root directory or an import of 10,000 pattern mappings
    /// builds the engine's rule index once instead of once per block of rules completed.
    ///
    /// With `replacingHeldIDs` (as ``add(_:)`` does), a mapping whose id is held already first removes
    /// the mapping holding it, and is inserted alone (removing may compact the engine), so runs end
    /// there. When a rule of a run does not compile, the batch adds nothing and the run is inserted one
    /// at a time, which stops at that mapping as before.
    private func insert(
        contentsOf mappings: [WireMockMapping], into state: inout State, replacingHeldIDs: Bool,
        afterEach: (WireMockMapping, inout State) throws(WireMockError) -> Void = { _, _ in }
    ) throws(WireMockError) {
        var start = 0
        while start < mappings.count {
            var end = start
            if replacingHeldIDs {
                var ids = Set<String>()
                while end < mappings.count, state.mappings[mappings[end].id] == nil, ids.insert(mappings[end].id).inserted { end += 1 }
            } else {
                end = mappings.count
            }
            guard end > start else {
                remove(mappings[start].id, from: &state)
                try insert(mappings[start], into: &state)
                try afterEach(mappings[start], &state)
                start += 1
                continue
            }
            let run = mappings[start..<end]
            var rules: [Rule] = []
            for (offset, mapping) in run.enumerated() {
                if case .rule(let rule) = mapping.stub { rules.append(Self.ranked(rule, sequence: state.insertions + offset)) }
            }
            let engine = engine
            var prepared = ((try? engine.add(contentsOf: rules)) ?? [])[...]
            // The rules of mappings never inserted (an `afterEach` before them threw) leave the engine.
            defer {
                for entry in prepared {
                    engine.remove(entry)
                    state.removedEntries += 1
                }
            }
            for mapping in run {
                var entry: ReplayEngine.EntryID?
                if case .rule = mapping.stub { entry = prepared.popFirst() }
                try insert(mapping, into: &state, prepared: entry)
                try afterEach(mapping, &state)
            }
            start = end
        }
    }

    /// Inserts `mapping`, whose id no stored mapping has; a rule mapping's rule goes into the engine
    /// unless it is there already as `prepared` (ranked as it would be now).
    private func insert(_ mapping: WireMockMapping, into state: inout State, prepared: ReplayEngine.EntryID? = nil) throws(WireMockError) {
        let engine = engine
        if mapping.readsClientAddress { clientAddressRead.store(true, ordering: .relaxed) }
        var stored = Stored(mapping: mapping, sequence: state.insertions)
        switch mapping.stub {
        case .track(let track):
            let key = ExactSlot(
                key: engine.incomingRequest(for: track.request).key, scenario: track.scenario?.name,
                requiredState: track.scenario?.requiredState)
            stored.slot = key
            if let previous = state.owners[key]?.last, let entry = state.mappings[previous]?.entry {
                removeEntry(entry, from: engine, &state)
                state.mappings[previous]?.entry = nil
            }
            state.owners[key, default: []].append(mapping.id)
            stored.entry = engine.add(track)
        case .rule(let rule):
            do throws(RuleError) {
                if let prepared { stored.entry = prepared } else { stored.entry = try engine.add(Self.ranked(rule, sequence: state.insertions)) }
            } catch {
                throw .invalid("/request", "Invalid stub mapping", detail: "\(error)")
            }
        }
        stored.addedToEngine = state.engineAdditions
        state.engineAdditions += 1
        state.liveEntries += 1
        state.insertions += 1
        state.mappings[mapping.id] = stored
        count.store(state.mappings.count, ordering: .relaxed)
        if let extra = mapping.settings {
            let held = settings.withLock { all in
                all[mapping.id] = extra
                return all.count
            }
            settingsCount.store(held, ordering: .relaxed)
        }
    }

    /// `rule` with its WireMock priority made an engine priority: newest first among equal WireMock
    /// priorities, the insertion count breaking ties downwards. Clamped so the product stays far from
    /// Int's limits whatever a client sends.
    private static func ranked(_ rule: Rule, sequence: Int) -> Rule {
        var ranked = rule
        ranked.priority = enginePriority(rule.priority, sequence: sequence)
        return ranked
    }

    private static func enginePriority(_ priority: Int?, sequence: Int) -> Int {
        min(max(priority ?? Rule.defaultPriority, -(1 << 30)), 1 << 30) * (1 << 32) - sequence
    }

    /// The engine priority the exact mapping that `hit` comes from would have as a rule: the rules
    /// WireMock tries before it (a lower `priority`, or the same and added later) rank below it.
    func enginePriority(ofExactHit hit: Hit) -> Int? {
        guard case .track = hit.source, let id = hit.track.name else { return nil }
        return state.withLock { state in
            state.mappings[id].map { Self.enginePriority($0.mapping.priority, sequence: $0.sequence) }
        }
    }

    private func remove(_ id: String, from state: inout State) {
        guard let stored = state.mappings.removeValue(forKey: id) else { return }
        if stored.mapping.settings != nil {
            let held = settings.withLock { all in
                all[id] = nil
                return all.count
            }
            settingsCount.store(held, ordering: .relaxed)
        }
        let engine = engine
        if let entry = stored.entry { removeEntry(entry, from: engine, &state) }
        if let key = stored.slot, var owners = state.owners[key] {
            let wasLive = owners.last == id
            owners.removeAll { $0 == id }
            state.owners[key] = owners.isEmpty ? nil : owners
            // The next newest mapping for the request answers again.
            if wasLive, let next = owners.last, let nextStored = state.mappings[next], case .track(let track) = nextStored.mapping.stub {
                state.mappings[next]?.entry = engine.add(track)
                state.mappings[next]?.addedToEngine = state.engineAdditions
                state.engineAdditions += 1
                state.liveEntries += 1
            }
        }
        count.store(state.mappings.count, ordering: .relaxed)
        if state.removedEntries >= max(compactionFloor, state.liveEntries) { compact(&state) }
    }

    private func removeEntry(_ entry: ReplayEngine.EntryID, from engine: ReplayEngine, _ state: inout State) {
        engine.remove(entry)
        state.liveEntries -= 1
        state.removedEntries += 1
    }

    /// Replaces the engine by one holding only the live entries, added in the order the old engine
    /// holds them, with the old engine's scenario states. Left as it is if an entry does not go in
    /// again (a rule compiled once compiles again, so this is not expected).
    private func compact(_ state: inout State) {
        guard state.removedEntries > 0 else { return }
        let old = engine
        let fresh = ReplayEngine(strategy: .repeat, configuration: WireMockFormat.configuration)
        let live = state.mappings.values.filter { $0.entry != nil }.sorted { $0.addedToEngine < $1.addedToEngine }
        // The rules in one batch (they are numbered among themselves as one at a time, apart from tracks).
        var rules: [Rule] = []
        for stored in live {
            if case .rule(let rule) = stored.mapping.stub { rules.append(Self.ranked(rule, sequence: stored.sequence)) }
        }
        guard var ruleEntries = (try? fresh.add(contentsOf: rules))?[...] else { return }
        var entries: [(id: String, entry: ReplayEngine.EntryID)] = []
        for stored in live {
            switch stored.mapping.stub {
            case .track(let track):
                entries.append((stored.mapping.id, fresh.add(track)))
            case .rule:
                guard let entry = ruleEntries.popFirst() else { return }
                entries.append((stored.mapping.id, entry))
            }
        }
        // Scenarios no live mapping takes part in are gone, as in WireMock; the others keep their state.
        for scenario in old.scenarios where scenario.state != ScenarioStep.startedState {
            try? fresh.setState(ofScenario: scenario.name, to: scenario.state)
        }
        current.withLock { $0 = fresh }
        for (order, (id, entry)) in entries.enumerated() {
            state.mappings[id]?.entry = entry
            state.mappings[id]?.addedToEngine = order
        }
        state.engineAdditions = entries.count
        state.liveEntries = entries.count
        state.removedEntries = 0
    }

    /// The mappings in the order they were added, oldest first.
    private static func inOrder(_ state: State) -> [Stored] {
        state.mappings.values.sorted { $0.sequence < $1.sequence }
    }

    // MARK: Scenarios

    /// The mappings' scenarios, in the order the engine first meets them, each with every mapping
    /// taking part (an exact mapping a newer one shadows included, as WireMock lists it) in the order
    /// they were added.
    var scenarios: [WireMockScenario] {
        state.withLock { state in Self.scenarios(state, engine: engine) }
    }

    private static func scenarios(_ state: State, engine: ReplayEngine) -> [WireMockScenario] {
        var byName: [String: [Stored]] = [:]
        for stored in state.mappings.values {
            guard let name = stored.mapping.json[member: "scenarioName"]?.stringValue else { continue }
            byName[name, default: []].append(stored)
        }
        return engine.scenarios.map { scenario in
            WireMockScenario(
                name: scenario.name, state: scenario.state,
                mappings: (byName[scenario.name] ?? []).sorted { $0.sequence < $1.sequence }.map(\.mapping))
        }
    }

    /// Every scenario back in its `Started` state. Under the lock, as every change of scenario state the
    /// admin API makes, so that compaction never copies the states while they change.
    func resetScenarios() {
        state.withLock { _ in engine.resetScenarios() }
    }

    /// Puts the scenario `name` in `newState`, or back in `Started` when `resetting` (an empty body, as
    /// WireMock's Java client resets one); a body without a state (`newState` `nil`) is refused, as the
    /// jar refuses `state null`.
    ///
    /// - Throws: WireMock's 404 for a scenario no mapping takes part in, its 422 for a state none of
    ///   the scenario's mappings names (``WireMockScenario/possibleStates``).
    func setScenarioState(_ name: String, to newState: String?, resetting: Bool) throws(WireMockError) {
        try state.withLock { state throws(WireMockError) in
            guard let scenario = Self.scenarios(state, engine: engine).first(where: { $0.name == name }) else {
                throw WireMockScenario.unknown(name)
            }
            if !resetting, newState.map(scenario.possibleStates.contains) != true { throw scenario.unsupported(newState) }
            do throws(ScenarioError) {
                if resetting {
                    try engine.resetScenario(name)
                } else if let newState {
                    try engine.setState(ofScenario: name, to: newState)
                }
            } catch {
                throw error.identifier == "unknown-scenario" ? WireMockScenario.unknown(name) : scenario.unsupported(newState)
            }
        }
    }

    // MARK: Reading

    /// The mapping `id`, or `nil`.
    func mapping(_ id: String) -> WireMockMapping? {
        state.withLock { $0.mappings[id]?.mapping }
    }

    /// Every mapping, newest first.
    var all: [WireMockMapping] {
        state.withLock { state in Self.inOrder(state).reversed().map(\.mapping) }
    }

    /// The per-request settings of the mapping `id`, if it has any (a lock-free check first: most
    /// servers have none).
    func responseSettings(_ id: String) -> WireMockResponseSettings? {
        guard settingsCount.load(ordering: .relaxed) > 0 else { return nil }
        return settings.withLock { $0[id] }
    }

    /// The id of the mapping a hit came from; `track` is its track when the caller has read it already
    /// (reading ``Hit/track`` may decode it).
    func mappingID(for hit: Hit, track: Track? = nil) -> String {
        switch hit.source {
        case .track: (track ?? hit.track).name ?? ""
        case .rule(let name, _): name
        case .custom(let name): name
        }
    }
}
