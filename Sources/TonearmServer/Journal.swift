import Foundation
import Synchronization
import Tonearm
import TonearmCassettes

/// One exchange the server handled: when, what was asked, what was answered and by what.
public struct JournalEntry: Sendable {
    /// What answered a request.
    public struct Source: Sendable, Hashable, CustomStringConvertible {
        /// `track`, `rule`, `recorded`, `stub`, `network`, `miss`, `refused`, `upstream-error`, `fault` or `control`.
        public var kind: String
        /// Which track, rule or host, or why the request was refused or missed.
        public var detail: String

        /// Creates a source.
        public init(kind: String, detail: String) {
            self.kind = kind
            self.detail = detail
        }

        /// `kind: detail`.
        public var description: String { detail.isEmpty ? kind : "\(kind): \(detail)" }
    }

    /// When the request arrived.
    public var time: Date
    /// The request, with the upstream URL it stands for.
    public var request: Request
    /// The response sent, or `nil` when the connection was faulted instead.
    public var response: Response?
    /// What answered.
    public var source: Source
    /// From the end of the request to the end of the answer, including simulated delays.
    public var latency: Duration
    /// The exchange's number since the server started, from 0; set by the journal. WireMock serve-event
    /// ids are made from it.
    public internal(set) var sequence = 0
}

/// The last exchanges (at most `limit`) and the misses among them, for the control API and `--journal`.
final class Journal: Sendable {
    let limit: Int
    private let state = Mutex(State())

    private struct State {
        var entries: [JournalEntry] = []
        var misses: [ServerMiss] = []
        var total = 0
    }

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    func append(_ entry: JournalEntry, miss: ServerMiss? = nil) {
        var entry = entry
        state.withLock { state in
            entry.sequence = state.total
            state.total += 1
            state.entries.append(entry)
            // Trimming in batches keeps appends O(1) amortised.
            if state.entries.count >= 2 * limit { state.entries.removeFirst(state.entries.count - limit) }
            if var miss {
                miss.sequence = entry.sequence
                state.misses.append(miss)
                if state.misses.count >= 2 * limit { state.misses.removeFirst(state.misses.count - limit) }
            }
        }
    }

    /// The kept entries, oldest first.
    var entries: [JournalEntry] {
        state.withLock { Array($0.entries.suffix(limit)) }
    }

    /// The kept misses, oldest first.
    var misses: [ServerMiss] {
        state.withLock { Array($0.misses.suffix(limit)) }
    }

    /// How many exchanges were journaled since the server started, including dropped ones.
    var total: Int { state.withLock { $0.total } }

    /// Forgets every entry and miss.
    func clear() {
        state.withLock { state in
            state.entries.removeAll()
            state.misses.removeAll()
        }
    }

    /// The journal as a HAR 1.2 log: each entry's comment says what answered, its time is the latency.
    func har() throws(CassetteError) -> [UInt8] {
        try HARFormat.encode(cassette())
    }

    /// Writes the journal to `url` as HAR, atomically.
    func writeHAR(to url: URL) throws(CassetteError) {
        try HARFormat.write(cassette(), to: url)
    }

    private func cassette() -> Cassette {
        let entries = self.entries.map { entry -> CassetteEntry in
            let outcome: Track.Outcome = entry.response.map { .response($0) } ?? .transportError(.networkConnectionLost)
            let milliseconds = entry.latency.components.seconds * 1000 + entry.latency.components.attoseconds / 1_000_000_000_000_000
            let track = Track(request: entry.request, outcome: outcome, name: entry.source.description, delay: .milliseconds(milliseconds))
            return CassetteEntry(track, recordedAt: entry.time)
        }
        return Cassette(name: "tonearm serve journal", entries: entries)
    }
}

/// A request nothing answered, with the engine's report.
struct ServerMiss: Sendable {
    let time: Date
    let request: Request
    let report: MissReport
    /// The journal entry's sequence number, set by the journal.
    var sequence = 0
}
