import Foundation
import Synchronization
import Tonearm
import TonearmCassettes

/// The stub mappings a server holds for WireMock clients: those loaded from `--root-dir` (the
/// defaults `POST /__admin/mappings/reset` returns to) and those added through `/__admin/mappings`.
///
/// Every mapping lives in one live ``ReplayEngine`` keyed as WireMock matches (method, path, query,
/// body; no host): exact mappings are tracks found by key in O(1), the others rules. WireMock's order is
/// kept: among exact mappings for one request the newest answers (older ones are taken out of the engine
/// and put back when the newer one is removed), and among rules of equal priority the newest is tried
/// first.
final class WireMockStubs: Sendable {
    /// Answers requests; mutated only under `state`'s lock, matched without it.
    let engine = ReplayEngine(strategy: .repeat, configuration: WireMockFormat.configuration)
    /// `--root-dir`: where defaults are loaded from and `save` writes.
    let rootDirectory: WireMockRootDirectory?
    /// When the server started, for health's uptime.
    let started = ContinuousClock.now
    /// The first 24 hex digits of this server's serve-event ids.
    let eventIDPrefix = WireMockServeEvents.makePrefix()
    /// How many mappings there are, read on every request without the lock: none means no lookup.
    private let count = Atomic<Int>(0)
    private let state: Mutex<State>

    private struct Stored: Sendable {
        var mapping: WireMockMapping
        /// The engine entry while the mapping is live (an exact mapping shadowed by a newer one has none).
        var entry: ReplayEngine.EntryID?
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
        /// Ids in insertion order, oldest first.
        var order: [String] = []
        /// Exact mappings per request and scenario step, oldest first; the last is the live one.
        var owners: [ExactSlot: [String]] = [:]
        var insertions = 0
        /// The mappings loaded from the root directory.
        var defaults: [WireMockMapping] = []
        /// `fixedDelay` from `POST /__admin/settings`, added to every mapping's answer.
        var fixedDelay: Int?
    }

    /// A store holding the mappings of `rootDirectory`, if any.
    init(rootDirectory: WireMockRootDirectory?) throws(ServerError) {
        self.rootDirectory = rootDirectory
        state = Mutex(State(defaults: try rootDirectory?.load() ?? []))
        do throws(WireMockError) {
            try resetToDefaults()
        } catch {
            throw .invalid(what: "WireMock mapping", value: error.pointer, expected: error.detail)
        }
    }

    /// The `__files` folder `bodyFileName` is read from, when the server has a root directory.
    var bodyFiles: URL? { rootDirectory?.bodyFiles }

    /// Whether any mapping is held (a lock-free read, so servers without mappings pay nothing).
    var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    // MARK: Changing mappings

    /// Adds `mapping`, replacing one with the same id; a `persistent` one is written to the root
    /// directory at once (and is a default from then on), as WireMock does.
    func add(_ mapping: WireMockMapping) throws(WireMockError) {
        try state.withLock { state throws(WireMockError) in
            if state.mappings[mapping.id] != nil { remove(mapping.id, from: &state) }
            try insert(mapping, into: &state)
            if mapping.isPersistent, let rootDirectory {
                try rootDirectory.save([mapping])
                state.defaults.removeAll { $0.id == mapping.id }
                state.defaults.append(mapping)
            }
        }
    }

    /// Replaces the mapping `id`; `false` when there is none.
    func replace(_ mapping: WireMockMapping) throws(WireMockError) -> Bool {
        try state.withLock { state throws(WireMockError) in
            guard state.mappings[mapping.id] != nil else { return false }
            remove(mapping.id, from: &state)
            try insert(mapping, into: &state)
            return true
        }
    }

    /// Removes the mapping `id`; `false` when there is none.
    func remove(_ id: String) -> Bool {
        state.withLock { state in
            guard state.mappings[id] != nil else { return false }
            remove(id, from: &state)
            return true
        }
    }

    /// Removes the mappings whose metadata `matches`; returns how many.
    @discardableResult
    func remove(where matches: (JSONValue?) -> Bool) -> Int {
        state.withLock { state in
            let doomed = state.order.filter { state.mappings[$0].map { matches($0.mapping.metadata) } ?? false }
            for id in doomed { remove(id, from: &state) }
            return doomed.count
        }
    }

    /// Removes every mapping.
    func removeAll() {
        state.withLock { state in
            for id in state.order { remove(id, from: &state) }
        }
    }

    /// Back to the mappings loaded from the root directory, every scenario in its `Started` state.
    func resetToDefaults() throws(WireMockError) {
        try state.withLock { state throws(WireMockError) in
            for id in state.order { remove(id, from: &state) }
            for mapping in state.defaults { try insert(mapping, into: &state) }
        }
        engine.resetScenarios()
    }

    /// Writes the mappings not loaded from the root directory into its `mappings` folder; they are
    /// defaults from then on.
    func save() throws(WireMockError) {
        guard let rootDirectory else {
            throw .invalid("", "No root directory", detail: "start the server with --root-dir DIR to save mappings into DIR/mappings")
        }
        try state.withLock { state throws(WireMockError) in
            let defaultIDs = Set(state.defaults.map(\.id))
            let added = state.order.compactMap { state.mappings[$0]?.mapping }.filter { !defaultIDs.contains($0.id) }
            try rootDirectory.save(added)
            state.defaults += added
        }
    }

    /// The global fixed delay in milliseconds, if set.
    var fixedDelay: Int? {
        get { state.withLock { $0.fixedDelay } }
        set { state.withLock { $0.fixedDelay = newValue } }
    }

    private func insert(_ mapping: WireMockMapping, into state: inout State) throws(WireMockError) {
        var stored = Stored(mapping: mapping)
        switch mapping.stub {
        case .track(let track):
            let key = ExactSlot(
                key: engine.incomingRequest(for: track.request).key, scenario: track.scenario?.name,
                requiredState: track.scenario?.requiredState)
            stored.slot = key
            if let previous = state.owners[key]?.last, let entry = state.mappings[previous]?.entry {
                engine.remove(entry)
                state.mappings[previous]?.entry = nil
            }
            state.owners[key, default: []].append(mapping.id)
            stored.entry = engine.add(track)
        case .rule(var rule):
            // Newest first among equal WireMock priorities: the insertion count breaks ties downwards.
            // Clamped so the product stays far from Int's limits whatever a client sends.
            let priority = min(max(rule.priority ?? Rule.defaultPriority, -(1 << 30)), 1 << 30)
            rule.priority = priority * (1 << 32) - state.insertions
            do throws(RuleError) {
                stored.entry = try engine.add(rule)
            } catch {
                throw .invalid("/request", "Invalid stub mapping", detail: "\(error)")
            }
        }
        state.insertions += 1
        state.mappings[mapping.id] = stored
        state.order.append(mapping.id)
        count.store(state.mappings.count, ordering: .relaxed)
    }

    private func remove(_ id: String, from state: inout State) {
        guard let stored = state.mappings.removeValue(forKey: id) else { return }
        state.order.removeAll { $0 == id }
        if let entry = stored.entry { engine.remove(entry) }
        if let key = stored.slot, var owners = state.owners[key] {
            let wasLive = owners.last == id
            owners.removeAll { $0 == id }
            state.owners[key] = owners.isEmpty ? nil : owners
            // The next newest mapping for the request answers again.
            if wasLive, let next = owners.last, let nextStored = state.mappings[next], case .track(let track) = nextStored.mapping.stub {
                state.mappings[next]?.entry = engine.add(track)
            }
        }
        count.store(state.mappings.count, ordering: .relaxed)
    }

    // MARK: Scenarios

    /// The mappings' scenarios, each with the mappings taking part.
    var scenarios: [(scenario: Scenario, mappings: [WireMockMapping])] {
        state.withLock { state in
            var byEntry: [ReplayEngine.EntryID: String] = [:]
            for (id, stored) in state.mappings {
                if let entry = stored.entry { byEntry[entry] = id }
            }
            return engine.scenarios.map { scenario in
                (scenario, scenario.entries.compactMap { byEntry[$0].flatMap { state.mappings[$0]?.mapping } })
            }
        }
    }

    /// Every scenario back in its `Started` state.
    func resetScenarios() {
        engine.resetScenarios()
    }

    // MARK: Reading

    /// The mapping `id`, or `nil`.
    func mapping(_ id: String) -> WireMockMapping? {
        state.withLock { $0.mappings[id]?.mapping }
    }

    /// Every mapping, newest first.
    var all: [WireMockMapping] {
        state.withLock { state in state.order.reversed().compactMap { state.mappings[$0]?.mapping } }
    }

    /// The id of the mapping a hit came from.
    func mappingID(for hit: Hit) -> String {
        switch hit.source {
        case .track: hit.track.name ?? ""
        case .rule(let name, _): name
        case .custom(let name): name
        }
    }
}
