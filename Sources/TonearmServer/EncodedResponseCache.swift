import NIOCore
import Synchronization
import Tonearm

/// One loaded cassette's replayed answers as ``ResponseEncoding`` encodes them for the common request
/// (HTTP/1.1, kept alive, not `HEAD`), each encoded on its first use and written as it is from then on.
///
/// What answered names the answer: a track's response never changes (positions are never reused, and a
/// cassette loaded anew brings its own cache), nor does a rule's. Answers the server rewrites
/// (`--rewrite-urls`) are not kept. Memory is bounded: answers over ``maximumAnswerBytes`` are encoded
/// each time, and none is added once ``maximumBytes`` are kept, so a cassette of large bodies does not
/// hold each of them twice.
///
/// A kept answer is found by position in a table sized when the cassette is loaded, one word per track
/// and rule, read without a lock: with 100,000 tracks a replayed hit reaches its answer in one load
/// from a flat table, where a dictionary behind a lock cost a hash, a lock and two more cache misses.
/// Tracks and rules added while serving (recordings, runtime stubs) are kept in a dictionary behind a
/// `Mutex`.
///
/// `@unchecked Sendable` is safe because the tables' slots are `Atomic`s, each moved at most once from
/// empty to an answer retained for the table (a compare-and-exchange with releasing order; a reader
/// loads with acquiring order and sees the answer fully built); a slot's answer is never replaced or
/// released before `deinit`, when no other reference to the tables exists; the dictionary is behind
/// its `Mutex`, and the byte count is an `Atomic`.
package final class EncodedResponseCache: @unchecked Sendable {
    /// One answer as kept: its bytes, what playing it needs besides, and the hit it came from, so that
    /// answering and journaling it need nothing of its track (`Tonearm/Hit/track` may decode the
    /// track each time it is read), and one reference carries all of it.
    package final class Kept: Sendable {
        // What every request reads comes first, within the object's first cache line or two; the hit,
        // as large as a track and read only for a HEAD, an HTTP/1.0 request or the journal, comes last.
        /// The whole answer, head and body, as written to an HTTP/1.1 request kept alive.
        let bytes: ByteBuffer
        /// The track's delay.
        let delay: Duration?
        /// What answered, as the journal names it: worked out once, not formatted for every request.
        let source: JournalEntry.Source
        /// What answered, holding no request.
        let hit: Hit

        init(bytes: ByteBuffer, delay: Duration?, hit: Hit, source: JournalEntry.Source) {
            self.bytes = bytes
            self.delay = delay
            self.hit = hit.forgettingRequest()
            self.source = source
        }

        /// The response the bytes encode, read from the track (decoding it when it is packed): for a
        /// request the bytes do not answer as they are (`HEAD`, HTTP/1.0, a closing connection), and
        /// for the journal when it is read. `nil` only if the track were a transport error, which is
        /// never kept.
        var response: Response? {
            if case .response(let response) = hit.track.outcome { response } else { nil }
        }

        /// The status, read from the kept status line (`HTTP/1.1 200 …`) without reading the track.
        var status: Int? {
            bytes.getString(at: bytes.readerIndex + 9, length: 3).flatMap { Int($0) }
        }
    }

    /// A track by its position, or a rule by its sequence number.
    struct Key: Hashable, Sendable {
        var position: Int
        var isRule: Bool

    }

    /// Where one answer not kept yet is to be kept, carried from what answered to the connection that
    /// encodes it. A class: it is made once per answer (until the answer is kept) but rides in every
    /// ``StageAnswer`` and ``OutgoingResponse``, which would otherwise carry its hit's bytes by value.
    package final class Slot: Sendable {
        let cache: EncodedResponseCache
        let key: Key
        /// The track's delay, kept with its bytes.
        let delay: Duration?
        /// What answered.
        let hit: Hit
        /// What answered, as the journal names it.
        let source: JournalEntry.Source

        init(cache: EncodedResponseCache, key: Key, delay: Duration?, hit: Hit, source: JournalEntry.Source) {
            self.cache = cache
            self.key = key
            self.delay = delay
            self.hit = hit
            self.source = source
        }

        /// The answer's bytes, encoded by `encode` the first time.
        func buffer(encode: () -> ByteBuffer?) -> ByteBuffer? {
            cache.buffer(for: key, encode: { encode().map { Kept(bytes: $0, delay: delay, hit: hit, source: source) } })
        }
    }

    static let maximumAnswerBytes = 64 * 1024
    static let maximumBytes = 64 * 1024 * 1024

    private let tracks: UnsafeMutablePointer<Atomic<UInt>>
    private let trackCount: Int
    private let rules: UnsafeMutablePointer<Atomic<UInt>>
    private let ruleCount: Int
    /// Answers of tracks and rules added after loading.
    private let added = Mutex([Key: Kept]())
    private let keptBytes = Atomic<Int>(0)

    /// An empty cache with a slot for each of the `trackCount` tracks and `ruleCount` rules loaded.
    init(trackCount: Int, ruleCount: Int) {
        self.trackCount = max(0, trackCount)
        self.ruleCount = max(0, ruleCount)
        tracks = Self.table(self.trackCount)
        rules = Self.table(self.ruleCount)
    }

    deinit {
        for (table, count) in [(tracks, trackCount), (rules, ruleCount)] {
            for slot in 0..<count {
                if let kept = UnsafeRawPointer(bitPattern: table[slot].load(ordering: .acquiring)) {
                    Unmanaged<Kept>.fromOpaque(kept).release()
                }
            }
            table.deinitialize(count: count)
            table.deallocate()
        }
    }

    private static func table(_ count: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        let table = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: max(count, 1))
        for slot in 0..<count { (table + slot).initialize(to: Atomic<UInt>(0)) }
        return table
    }

    /// The answer kept for what `source` names, if it is.
    func kept(for source: Hit.Source) -> Kept? {
        guard let key = Key(source) else { return nil }
        if let slot = tableSlot(for: key) {
            guard let kept = UnsafeRawPointer(bitPattern: slot.pointee.load(ordering: .acquiring)) else { return nil }
            return Unmanaged<Kept>.fromOpaque(kept).takeUnretainedValue()
        }
        return added.withLock { $0[key] }
    }

    /// Where the answer of `hit`, whose track has `delay` and which the journal names `source`, is to be
    /// kept; `nil` for a custom strategy's.
    func slot(for hit: Hit, delay: Duration?, source: JournalEntry.Source) -> Slot? {
        Key(hit.source).map { Slot(cache: self, key: $0, delay: delay, hit: hit, source: source) }
    }

    private func tableSlot(for key: Key) -> UnsafeMutablePointer<Atomic<UInt>>? {
        guard key.position >= 0 else { return nil }
        if key.isRule { return key.position < ruleCount ? rules + key.position : nil }
        return key.position < trackCount ? tracks + key.position : nil
    }

    /// A slot is handed out only for an answer ``kept(for:)`` did not find, so this encodes without
    /// looking again. Outside any lock: two connections meeting a new answer at once both encode it,
    /// equally, and the first keeps it.
    private func buffer(for key: Key, encode: () -> Kept?) -> ByteBuffer? {
        guard let encoded = encode() else { return nil }
        keep(encoded, for: key)
        return encoded.bytes
    }

    /// Keeps `kept` unless the byte cap is reached or another connection kept the same answer first.
    private func keep(_ kept: Kept, for key: Key) {
        let size = kept.bytes.capacity
        guard size <= Self.maximumAnswerBytes else { return }
        guard keptBytes.add(size, ordering: .relaxed).newValue <= Self.maximumBytes else {
            keptBytes.subtract(size, ordering: .relaxed)
            return
        }
        let stored: Bool
        if let slot = tableSlot(for: key) {
            let retained = Unmanaged.passRetained(kept)
            stored = slot.pointee.compareExchange(
                expected: 0, desired: UInt(bitPattern: retained.toOpaque()), ordering: .releasing
            ).exchanged
            if !stored { retained.release() }
        } else {
            stored = added.withLock { added in
                guard added[key] == nil else { return false }
                added[key] = kept
                return true
            }
        }
        if !stored { keptBytes.subtract(size, ordering: .relaxed) }
    }
}

extension EncodedResponseCache.Key {
    /// The key of the answer `source` names; `nil` for a custom strategy's, which may vary.
    init?(_ source: Hit.Source) {
        switch source {
        case .track(let position): self.init(position: position, isRule: false)
        case .rule(_, let position): self.init(position: position, isRule: true)
        case .custom: return nil
        }
    }
}
