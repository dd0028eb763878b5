import Foundation
import Synchronization
import Tonearm
import TonearmCassettes

/// The last exchanges and the misses among them, for the control API and `--journal`, bounded twice:
/// at most `limit` entries, and at most `maximumBytes` of what they hold (URLs, headers, bodies, miss
/// reports), the oldest dropped first. Bodies longer than ``storedBodyLimit`` are kept cut to it, the
/// entry saying so, so one large upload costs the journal no more than a small one; a proxied
/// exchange's bodies, which a recording turns into a mapping, are kept whole up to
/// ``recordableBodyLimit``.
///
/// Entries are held here only: clearing the journal frees them.
package final class Journal: Sendable {
    /// The longest request or response body an entry keeps, in bytes: enough for any API's JSON, and
    /// a thousand such entries fit the default byte cap.
    package static let storedBodyLimit = 64 * 1024
    /// What an entry costs besides its strings and bodies (the value, dates, array slots), for accounting.
    private static let entryOverhead = 256

    package let limit: Int
    package let maximumBytes: Int
    /// The longest body a proxied exchange keeps: an eighth of ``maximumBytes`` (8 MiB by default), so
    /// a recording holds real API answers whole while one exchange can never take the whole journal.
    package let recordableBodyLimit: Int
    private let state = Mutex(State())

    private struct State {
        var entries = MovingQueue<(entry: JournalEntry, bytes: Int)>()
        var misses = MovingQueue<(miss: ServerMiss, bytes: Int)>()
        var total = 0
        /// What the kept entries and misses are accounted to hold.
        var bytes = 0
        /// The number of the newest entry the caps dropped, -1 before any.
        var newestDropped = -1
        /// The numbers of the entries completed since they were journaled (streams that ended), the
        /// newest ``updatesKept``; and how many completions there were in all.
        var updated = MovingQueue<Int>()
        var updateCount = 0
    }

    /// How many completed entries' numbers are kept for the inspector's feed: a feed further behind
    /// than that reloads the list instead.
    package static let updatesKept = 1000

    package init(limit: Int, maximumBytes: Int) {
        self.limit = max(1, limit)
        self.maximumBytes = max(0, maximumBytes)
        recordableBodyLimit = max(Self.storedBodyLimit, self.maximumBytes / 8)
    }

    /// Journals `entry`.
    package func append(_ entry: consuming JournalEntry) {
        let bytes = prepare(&entry)
        // Moved into the lock's closure through an optional it takes from: captured as it is, the entry
        // would be copied into the journal (a retain and a release of each of its strings and arrays).
        var pending = Optional(consume entry)
        // The entry a full journal drops is returned and discarded here, after the lock is released, so
        // the other event loops do not wait on its deallocation.
        _ = state.withLock { state -> JournalEntry? in
            guard let entry = pending.take() else { return nil }
            _ = Self.insert(consume entry, bytes: bytes, into: &state)
            return trim(&state)
        }
    }

    /// Journals `entry`, which missed as `miss` says. (A separate method: the hits, nearly every
    /// request, then carry no optional miss, whose copies cost more than the rest of the journaling.)
    package func append(_ entry: JournalEntry, miss: ServerMiss) {
        var entry = entry
        let bytes = prepare(&entry)
        var (miss, missBytes) = Self.prepared(miss)
        _ = state.withLock { state in
            miss.sequence = Self.insert(entry, bytes: bytes, into: &state)
            state.misses.append((miss, missBytes))
            state.bytes += missBytes
            return trim(&state)
        }
    }

    /// Journals `entry`, the head of a stream that goes on (a relayed body, a WebSocket), and returns
    /// its number, for ``complete(_:with:)`` once the stream ends.
    package func appendStreamHead(_ entry: JournalEntry) -> Int {
        var entry = entry
        let bytes = prepare(&entry)
        return state.withLock { state in
            let sequence = Self.insert(entry, bytes: bytes, into: &state)
            _ = trim(&state)
            return sequence
        }
    }

    /// Completes the entry numbered `sequence` with what its stream turned out to be, once it ended: a
    /// relayed body whole (cut to the journal's limit as any body) with its pacing, or a WebSocket's
    /// conversation (its payloads within the same limit). Its latency stays the head's (the HAR export's
    /// `time`, which a replay of that HAR waits before answering). Nothing when the entry is no longer kept.
    func complete(_ sequence: Int, with outcome: StreamOutcome.Value) {
        state.withLock { state in
            guard let index = Self.index(of: sequence, in: state.entries) else { return }
            var (entry, oldBytes) = state.entries[index]
            let bodyLimit = entry.keepsWholeBodies ? recordableBodyLimit : Self.storedBodyLimit
            var bytes: Int
            switch outcome {
            case .body(let response, let pacing):
                entry.response = response
                entry.setStream(pacing: pacing, webSocket: nil)
                // The request was cut (and its full size noted) when the head was journaled.
                let requestCut = entry.truncation?.requestBodyBytes
                bytes = prepare(&entry)
                if let requestCut {
                    var truncation = entry.truncation ?? JournalEntry.Truncation()
                    truncation.requestBodyBytes = requestCut
                    entry.truncation = truncation
                }
            case .webSocket(let conversation, let leftOut):
                var kept = conversation
                var payloadBytes = 0
                let keptCount = conversation.messages.prefix { message in
                    payloadBytes += message.payload.count
                    return payloadBytes <= bodyLimit
                }.count
                kept.messages.removeSubrange(keptCount...)
                bytes = oldBytes + kept.messages.reduce(0) { $0 + $1.payload.count + 48 } + 64
                entry.setStream(pacing: entry.pacing, webSocket: kept, webSocketMessagesLeftOut: leftOut + conversation.messages.count - keptCount)
            }
            state.entries[index] = (entry, bytes)
            state.bytes += bytes - oldBytes
            state.updated.append(sequence)
            state.updateCount += 1
            if state.updated.count > Self.updatesKept { _ = state.updated.popFirst() }
            _ = trim(&state)
        }
    }

    /// The entries completed after the first `count` completions (``complete(_:with:)``), those still
    /// kept, oldest first; and the number of completions so far, for the next call. `nil` entries when
    /// more completions than are remembered happened since `count`.
    package func completed(after count: Int) -> (entries: [JournalEntry]?, count: Int) {
        state.withLock { state in
            let missed = state.updateCount - count
            guard missed > 0 else { return ([], state.updateCount) }
            guard missed <= state.updated.count else { return (nil, state.updateCount) }
            // Each entry once, in the order completed (a set: up to 1,000 of them under the lock).
            var sequences: [Int] = [], seen = Set<Int>()
            for offset in (state.updated.count - missed)..<state.updated.count where seen.insert(state.updated[offset]).inserted {
                sequences.append(state.updated[offset])
            }
            let entries = sequences.compactMap { sequence in Self.index(of: sequence, in: state.entries).map { state.entries[$0].entry } }
            return (entries, state.updateCount)
        }
    }

    /// How many entries have been completed since the server started.
    package var completionCount: Int { state.withLock { $0.updateCount } }

    /// `pacing` with its parts cut to the first `count` bytes (the journal keeps a long body cut).
    private static func pacing(_ pacing: BodyPacing, cutTo count: Int) -> BodyPacing {
        var parts: [BodyPacing.Part] = []
        var total = 0
        for part in pacing.parts where total < count {
            let kept = min(part.byteCount, count - total)
            parts.append(BodyPacing.Part(offset: part.offset, byteCount: kept))
            total += kept
        }
        return BodyPacing(parts: parts)
    }

    /// Where the entry numbered `sequence` is in `entries`, kept in number order (with gaps where some
    /// were removed): a binary search.
    private static func index(of sequence: Int, in entries: MovingQueue<(entry: JournalEntry, bytes: Int)>) -> Int? {
        var low = entries.startIndex, high = entries.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if entries[middle].entry.sequence < sequence { low = middle + 1 } else { high = middle }
        }
        guard low < entries.endIndex, entries[low].entry.sequence == sequence else { return nil }
        return low
    }

    /// Appends `entry`, numbered; returns its number.
    private static func insert(_ entry: consuming JournalEntry, bytes: Int, into state: inout State) -> Int {
        let sequence = state.total
        entry.sequence = sequence
        state.total += 1
        state.entries.append((consume entry, bytes))
        state.bytes += bytes
        return sequence
    }

    /// Drops the oldest entries and misses past ``limit`` and ``maximumBytes``; returns the last entry
    /// dropped for the caller to free outside the lock (at most one in the steady state).
    private func trim(_ state: inout State) -> JournalEntry? {
        var oldest: JournalEntry?
        while state.entries.count > limit, let dropped = state.entries.popFirst() {
            state.bytes -= dropped.bytes
            state.newestDropped = dropped.entry.sequence
            oldest = dropped.entry
        }
        while state.misses.count > limit, let dropped = state.misses.popFirst() { state.bytes -= dropped.bytes }
        // Over the byte cap, the older of the oldest entry and the oldest miss goes first.
        while state.bytes > maximumBytes, !state.entries.isEmpty || !state.misses.isEmpty {
            let entryFirst = state.misses.first.map { miss in state.entries.first.map { $0.entry.sequence <= miss.miss.sequence } ?? false } ?? true
            if entryFirst, let dropped = state.entries.popFirst() {
                state.bytes -= dropped.bytes
                state.newestDropped = dropped.entry.sequence
            } else if let dropped = state.misses.popFirst() {
                state.bytes -= dropped.bytes
            }
        }
        return oldest
    }

    /// Cuts `entry`'s bodies to ``storedBodyLimit`` (``recordableBodyLimit`` when it keeps them whole),
    /// saying so; returns what it is accounted to hold. In place: the entry is large, and a copy per
    /// request showed in the server's profile.
    private func prepare(_ entry: inout JournalEntry) -> Int {
        let bodyLimit = entry.keepsWholeBodies ? recordableBodyLimit : Self.storedBodyLimit
        var response: Response?
        switch entry.storedResponse {
        case .response(let answered):
            response = answered
        case .kept(let kept):
            // Reading the response would decode its track: the entry holds a reference to it, accounted
            // as the bytes it was sent as.
            entry.truncation = Self.truncate(&entry.request, &response, limit: bodyLimit)
            return Self.bytes(entry.request) + kept.bytes.readableBytes
        }
        entry.truncation = Self.truncate(&entry.request, &response, limit: bodyLimit)
        if entry.truncation?.responseBodyBytes != nil {
            entry.response = response
            // A paced body cut short keeps the parts of what is kept.
            if let pacing = entry.pacing { entry.setStream(pacing: Self.pacing(pacing, cutTo: bodyLimit), webSocket: entry.webSocket) }
        }
        return Self.bytes(entry.request) + (response.map(Self.bytes) ?? 0)
    }

    /// `miss` with its bodies cut to ``storedBodyLimit``, and what it is accounted to hold.
    private static func prepared(_ miss: ServerMiss) -> (ServerMiss, Int) {
        var miss = miss
        var unanswered: Response?
        _ = truncate(&miss.request, &unanswered, limit: storedBodyLimit)
        _ = truncate(&miss.report.request, &unanswered, limit: storedBodyLimit)
        return (miss, bytes(miss.request) + bytes(miss.report.request) + miss.report.canonical.bytes.count)
    }

    /// The kept entries, oldest first.
    package var entries: [JournalEntry] {
        state.withLock { $0.entries.map(\.entry) }
    }

    /// The newest kept entries numbered after `sequence`, at most `limit`, oldest first; and how many
    /// more numbered after it are newer than none of those (left out by `limit`, or dropped by the caps).
    /// What the inspector's feed sends: read from the newest end, so a feed that fell behind skips
    /// ahead rather than reading all the journal holds.
    package func entries(after sequence: Int, newest limit: Int) -> (entries: [JournalEntry], skipped: Int) {
        state.withLock { state in
            var picked: [JournalEntry] = []
            var index = state.entries.endIndex
            while index > state.entries.startIndex, picked.count < limit {
                index -= 1
                let entry = state.entries[index].entry
                guard entry.sequence > sequence else { break }
                picked.append(entry)
            }
            let first = picked.last?.sequence ?? state.total
            return (picked.reversed(), max(0, first - sequence - 1))
        }
    }

    /// The kept entry numbered `sequence`, or `nil`.
    package func entry(_ sequence: Int) -> JournalEntry? {
        state.withLock { state in Self.index(of: sequence, in: state.entries).map { state.entries[$0].entry } }
    }

    /// The kept miss of the entry numbered `sequence`, or `nil`.
    package func miss(_ sequence: Int) -> ServerMiss? {
        state.withLock { state in state.misses.last { $0.miss.sequence == sequence }?.miss }
    }

    /// How many misses are kept.
    package var missCount: Int { state.withLock { $0.misses.count } }

    /// The number of the oldest kept entry, or the next number when none is kept.
    package var oldestSequence: Int {
        state.withLock { $0.entries.first?.entry.sequence ?? $0.total }
    }

    /// The kept misses, oldest first.
    package var misses: [ServerMiss] {
        state.withLock { $0.misses.map(\.miss) }
    }

    /// How many exchanges were journaled since the server started, including dropped ones.
    package var total: Int { state.withLock { $0.total } }

    /// The number of the newest entry ``limit`` or ``maximumBytes`` made the journal drop, -1 when none
    /// was (entries removed on request do not count): a recording that began before it lost exchanges.
    package var newestDroppedSequence: Int { state.withLock { $0.newestDropped } }

    /// What the kept entries and misses are accounted to hold, in bytes; at most ``maximumBytes``.
    package var bytes: Int { state.withLock { $0.bytes } }

    /// Forgets the entries `matches` selects, and their misses; returns them, oldest first.
    package func remove(where matches: (JournalEntry) -> Bool) -> [JournalEntry] {
        state.withLock { state in
            var removed: [JournalEntry] = []
            var keptEntries = MovingQueue<(entry: JournalEntry, bytes: Int)>()
            for item in state.entries {
                if matches(item.entry) {
                    removed.append(item.entry)
                    state.bytes -= item.bytes
                } else {
                    keptEntries.append(item)
                }
            }
            guard !removed.isEmpty else { return [] }
            let sequences = Set(removed.map(\.sequence))
            var keptMisses = MovingQueue<(miss: ServerMiss, bytes: Int)>()
            for item in state.misses {
                if sequences.contains(item.miss.sequence) { state.bytes -= item.bytes } else { keptMisses.append(item) }
            }
            state.entries = keptEntries
            state.misses = keptMisses
            return removed
        }
    }

    /// Reads the responses that entries still hold as references to their tracks (replays of kept answers),
    /// so that the journal does not keep a cassette switched away from alive. An exchange still in
    /// flight on the old cassette may journal one more such entry, which the caps drop in time.
    package func readReplayedResponses() {
        state.withLock { state in
            for index in state.entries.indices { state.entries[index].entry = state.entries[index].entry.withResponseRead() }
        }
    }

    /// Forgets every entry and miss, releasing their memory.
    package func clear() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: false)
            state.misses.removeAll(keepingCapacity: false)
            state.updated.removeAll(keepingCapacity: false)
            state.bytes = 0
        }
    }

    /// Cuts the bodies to `limit` bytes, copying the kept bytes so that the full body's storage is
    /// freed with the request; the full sizes, when anything was cut.
    private static func truncate(_ request: inout Request, _ response: inout Response?, limit: Int) -> JournalEntry.Truncation? {
        var truncation = JournalEntry.Truncation()
        if request.body.count > limit {
            truncation.requestBodyBytes = request.body.count
            request.body = Array(request.body.prefix(limit))
        }
        if let body = response?.body, body.count > limit {
            truncation.responseBodyBytes = body.count
            response?.body = Array(body.prefix(limit))
        }
        return truncation.requestBodyBytes == nil && truncation.responseBodyBytes == nil ? nil : truncation
    }

    private static func bytes(_ request: Request) -> Int {
        entryOverhead + request.url.utf8.count + bytes(request.headers) + request.body.count
    }

    private static func bytes(_ response: Response) -> Int {
        bytes(response.headers) + response.body.count
    }

    private static func bytes(_ headers: [HeaderField]) -> Int {
        headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
    }

    /// The journal as a HAR 1.2 log: each entry's comment says what answered, its time is the latency;
    /// requests and responses redacted with `redaction`, as recordings are.
    package func har(redacting redaction: Redaction) throws(CassetteError) -> [UInt8] {
        try HARFormat.encode(cassette(redacting: redaction))
    }

    /// Writes the journal to `url` as HAR, atomically, redacted with `redaction`.
    package func writeHAR(to url: URL, redacting redaction: Redaction) throws(CassetteError) {
        try HARFormat.write(cassette(redacting: redaction), to: url)
    }

    private func cassette(redacting redaction: Redaction) -> Cassette {
        let entries = self.entries.map { entry -> CassetteEntry in
            let outcome: Track.Outcome = entry.response.map { .response($0) } ?? .transportError(.networkConnectionLost)
            let milliseconds = entry.latency.components.seconds * 1000 + entry.latency.components.attoseconds / 1_000_000_000_000_000
            var comment = entry.source.description
            if let truncation = entry.truncation { comment += " (\(truncation))" }
            let track = Track(
                request: entry.request, outcome: outcome, name: comment, delay: .milliseconds(milliseconds), pacing: entry.pacing,
                webSocket: entry.webSocket)
            return CassetteEntry(redaction.redact(track), recordedAt: entry.time)
        }
        return Cassette(name: "tonearm serve journal", entries: entries)
    }
}

/// A request nothing answered, with the engine's report.
package struct ServerMiss: Sendable {
    package let time: Date
    package var request: Request
    package var report: MissReport
    /// What was looked in, as the miss reply names it (the cassette, or the stub mappings).
    package var lookedIn = ""
    /// The journal entry's sequence number, set by the journal.
    package var sequence = 0
    /// The client's IP address, as near misses log it (`clientIp`).
    package var peer: ClientAddress?
    /// ``peer`` as text.
    package var clientAddress: String? { peer?.text }
}
