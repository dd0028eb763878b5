import Tonearm

/// Compiles inline stubs into one engine: exact stubs as tracks under a FIFO queue, rules after them.
public enum StubCompiler {
    /// What exact stubs match on: method, URL and query. Bodies and headers are left out so a stub for
    /// `POST /login` answers whatever is posted.
    public static let configuration = MatchingConfiguration(attributes: [.method, .url, .query])

    /// The tracks and rules `stubs` stand for, in declared order.
    public static func compile(_ stubs: [Stub]) throws(TonearmError) -> (tracks: [Track], rules: [Rule]) {
        var tracks: [Track] = [], rules: [Rule] = []
        for stub in stubs {
            switch stub.kind {
            case .exact(let method, let url, let replies):
                guard !replies.isEmpty else { throw .stubBody(stub: stub.label, reason: "has no reply") }
                for (position, reply) in replies.enumerated() {
                    let name = replies.count == 1 ? stub.label : "\(stub.label) #\(position + 1)"
                    tracks.append(Track(
                        request: Request(method: method, url: url), outcome: try reply.outcome(for: stub.label),
                        name: name, delay: reply.delay))
                }
            case .rule(let method, let pattern, let target, let priority, let reply):
                rules.append(Rule(
                    name: stub.label, method: method, pattern: pattern, target: target, priority: priority,
                    outcome: try reply.outcome(for: stub.label), delay: reply.delay))
            }
        }
        return (tracks, rules)
    }

    /// One engine answering `stubs`: exact stubs first (each queue in order, its last reply repeating),
    /// then rules by priority and declared order.
    ///
    /// - Throws: ``TonearmError/rule(_:)`` naming a rule whose pattern does not compile, or
    ///   ``TonearmError/stubBody(stub:reason:)`` for an unreadable file or unencodable value.
    public static func engine(
        _ stubs: [Stub], configuration: MatchingConfiguration = StubCompiler.configuration
    ) throws(TonearmError) -> ReplayEngine {
        let (tracks, rules) = try compile(stubs)
        do throws(RuleError) {
            return try ReplayEngine(
                tracks: tracks, rules: rules, strategy: .fifo(whenExhausted: .repeatLast), configuration: configuration)
        } catch {
            throw .rule(error)
        }
    }
}
