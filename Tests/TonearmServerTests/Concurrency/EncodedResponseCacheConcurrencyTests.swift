import NIOCore
import Synchronization
import Testing
import Tonearm
import TonearmTestSupport
@testable import TonearmServer

/// The cache of encoded answers as connections on different event loops use it: each meets answers not
/// kept yet, encodes them and offers them to the cache, and reads the ones kept, all at once on the same
/// slots. The loaded tracks' and rules' slots are lock-free (atomics in raw memory), so CI also runs this
/// suite under ThreadSanitizer (scripts/tsan.sh); answers of tracks added later sit behind a `Mutex`, which
/// TSan cannot follow when contended, and are tested in `swift test` only.
@Suite("Server: encoded answers under concurrency")
struct EncodedResponseCacheConcurrencyTests {
    private static let source = JournalEntry.Source(kind: .track, detail: "racing")

    /// What answered, for slot `number`: tracks first, then rules.
    private static func hitSource(_ number: Int, trackCount: Int) -> Hit.Source {
        number < trackCount ? .track(position: number) : .rule(name: "rule", position: number - trackCount)
    }

    /// The bytes thread `thread` encodes for slot `number`: a head naming both, a body whose length
    /// depends on the slot, and an end mark, so a reader can tell a whole answer from part of one.
    private static func encoding(_ number: Int, by thread: Int, bodyBytes: Int) -> ByteBuffer {
        var buffer = ByteBuffer(string: head(number, by: thread))
        buffer.writeRepeatingByte(UInt8(truncatingIfNeeded: number), count: bodyBytes + number % 97)
        buffer.writeString("|end")
        return buffer
    }

    private static func head(_ number: Int, by thread: Int) -> String {
        "HTTP/1.1 200 OK\r\nX-Slot: \(number)\r\nX-Encoder: \(thread)\r\n\r\n"
    }

    /// The encoder of `bytes` when they are a whole encoding of slot `number` (its head, its length and
    /// its end mark), else `nil`. The body is not read byte by byte: 60 KiB bodies read by every thread
    /// would make the test about copying.
    private static func encoder(of bytes: ByteBuffer, slot number: Int, bodyBytes: Int) -> Int? {
        let prefix = "HTTP/1.1 200 OK\r\nX-Slot: \(number)\r\nX-Encoder: "
        guard let start = bytes.getString(at: bytes.readerIndex, length: min(bytes.readableBytes, prefix.utf8.count + 8)),
            start.hasPrefix(prefix),
            let thread = Int(start.dropFirst(prefix.count).prefix { $0.isNumber }),
            bytes.getString(at: bytes.writerIndex - 4, length: 4) == "|end",
            bytes.readableBytes == head(number, by: thread).utf8.count + bodyBytes + number % 97 + 4
        else { return nil }
        return thread
    }

    /// The hit a connection would hold for slot `number`.
    private static func hit(_ number: Int, trackCount: Int) -> Hit {
        Hit(track: Track(request: Request(url: "https://a.example/\(number)"), response: Response(status: 200)),
            source: Self.hitSource(number, trackCount: trackCount))
    }

    /// What one thread saw: answers that were not whole, encodings handed back that were not its own, and
    /// for each slot the encoder of the first kept answer it read (`-1` for none).
    private struct Sightings: Sendable {
        var torn = 0
        var notOwn = 0
        var firstSeen: [Int]
        var changed = 0
    }

    @Test("threads filling and reading the same slots keep one answer per slot, and every read is a whole answer or none, the same from then on")
    func slotsFilledAndReadAtOnce() {
        let trackCount = 300, ruleCount = 100, threadCount = 6, bodyBytes = 200
        let slotCount = trackCount + ruleCount
        let answers = EncodedResponseCache(trackCount: trackCount, ruleCount: ruleCount)
        let sightings = RacingThreads.run(threadCount) { thread -> Sightings in
            var seen = Sightings(firstSeen: Array(repeating: -1, count: slotCount))
            // Each thread starts elsewhere and walks the slots twice, so threads meet on fresh slots and
            // read slots others are filling.
            for step in 0..<(2 * slotCount) {
                let number = (thread * 67 + step * 7) % slotCount
                let source = Self.hitSource(number, trackCount: trackCount)
                if let kept = answers.kept(for: source) {
                    guard let encoder = Self.encoder(of: kept.bytes, slot: number, bodyBytes: bodyBytes),
                        kept.hit.source == source, kept.source == Self.source
                    else {
                        seen.torn += 1
                        continue
                    }
                    if seen.firstSeen[number] == -1 { seen.firstSeen[number] = encoder } else if seen.firstSeen[number] != encoder { seen.changed += 1 }
                    continue
                }
                let own = Self.encoding(number, by: thread, bodyBytes: bodyBytes)
                let slot = answers.slot(for: Self.hit(number, trackCount: trackCount), delay: nil, source: Self.source)
                if slot?.buffer(encode: { own }) != own { seen.notOwn += 1 }
            }
            return seen
        }
        #expect(sightings.map(\.torn).reduce(0, +) == 0, "no read saw part of an answer, or another slot's")
        #expect(sightings.map(\.notOwn).reduce(0, +) == 0, "each encoder got its own bytes back to write")
        #expect(sightings.map(\.changed).reduce(0, +) == 0, "a kept answer is never replaced")
        for number in 0..<slotCount {
            let kept = answers.kept(for: Self.hitSource(number, trackCount: trackCount))
            let encoder = kept.flatMap { Self.encoder(of: $0.bytes, slot: number, bodyBytes: bodyBytes) }
            #expect(encoder != nil, "slot \(number) keeps a whole answer")
            #expect(sightings.allSatisfy { [-1, encoder].contains($0.firstSeen[number]) }, "slot \(number): every thread read the answer kept")
        }
    }

    @Test("threads filling slots at once keep no more than the byte cap, and stop short of it by at most one answer each")
    func byteCapUnderConcurrentFills() {
        // 1,150 answers of 60 KiB are about 67 MiB, over the 64 MiB cap; one slot's answer is over the
        // 64 KiB limit for one answer and never kept.
        let trackCount = 1_150, threadCount = 4, bodyBytes = 60 * 1024 - 200
        let oversized = 17
        let answers = EncodedResponseCache(trackCount: trackCount, ruleCount: 0)
        let torn = RacingThreads.run(threadCount) { thread -> Int in
            var torn = 0
            for step in 0..<trackCount {
                let number = (thread * 271 + step) % trackCount
                if let kept = answers.kept(for: .track(position: number)) {
                    if Self.encoder(of: kept.bytes, slot: number, bodyBytes: bodyBytes) == nil { torn += 1 }
                    continue
                }
                let own = number == oversized
                    ? Self.encoding(number, by: thread, bodyBytes: EncodedResponseCache.maximumAnswerBytes)
                    : Self.encoding(number, by: thread, bodyBytes: bodyBytes)
                _ = answers.slot(for: Self.hit(number, trackCount: trackCount), delay: nil, source: Self.source)?.buffer { own }
            }
            return torn
        }
        let kept = (0..<trackCount).compactMap { answers.kept(for: .track(position: $0)) }
        let keptBytes = kept.map(\.bytes.capacity).reduce(0, +)
        #expect(torn.reduce(0, +) == 0)
        #expect(answers.kept(for: .track(position: oversized)) == nil, "an answer over 64 KiB is not kept")
        #expect(keptBytes <= EncodedResponseCache.maximumBytes, "kept \(keptBytes) bytes")
        // A thread is refused only while its own reservation, plus at most one in flight per other
        // thread (a loser of a slot, or another refusal), would pass the cap: by then the kept answers
        // were within one answer per thread of it, and they never shrink.
        let answerLimit = EncodedResponseCache.maximumAnswerBytes
        #expect(keptBytes > EncodedResponseCache.maximumBytes - threadCount * answerLimit, "kept \(keptBytes) bytes in \(kept.count) answers")
    }

    #if !TONEARM_THREAD_SANITIZER
    @Test("tracks and rules added after loading are kept once each when threads meet them at once")
    func addedAnswersFilledAtOnce() {
        // No table slots at all: every answer goes to the dictionary behind the Mutex.
        let answers = EncodedResponseCache(trackCount: 0, ruleCount: 0)
        let slotCount = 200, bodyBytes = 100
        let torn = RacingThreads.run(6) { thread -> Int in
            var torn = 0
            for step in 0..<(2 * slotCount) {
                let number = (thread * 31 + step * 3) % slotCount
                if let kept = answers.kept(for: Self.hitSource(number, trackCount: slotCount / 2)) {
                    if Self.encoder(of: kept.bytes, slot: number, bodyBytes: bodyBytes) == nil { torn += 1 }
                    continue
                }
                let own = Self.encoding(number, by: thread, bodyBytes: bodyBytes)
                let slot = answers.slot(for: Self.hit(number, trackCount: slotCount / 2), delay: nil, source: Self.source)
                if slot?.buffer(encode: { own }) != own { torn += 1 }
            }
            return torn
        }
        #expect(torn.reduce(0, +) == 0)
        #expect((0..<slotCount).allSatisfy { answers.kept(for: Self.hitSource($0, trackCount: slotCount / 2)) != nil })
    }
    #endif
}
