import NIOCore
import Synchronization
import Tonearm

/// A body known in advance, written in parts at their times: a recorded stream replayed as it came
/// (``Track/pacing``, scaled by ``ServerConfiguration/streamPacing``), or a mapping's dribble.
///
/// The times count from the first ask, which the writer makes right after writing the head, so each
/// part is due its offset after the head went out. Parts already due are written together (a client
/// that read slowly catches up in one write, never a burst of tiny chunks); a part is never written
/// early. The writer asks again only once a write is done, so a client that stops reading holds one
/// write's bytes, not the body.
struct PacedSchedule: Sendable {
    private let body: [UInt8]
    private let slices: [(offset: Duration, range: Range<Int>)]
    private var next = 0
    private var start: NIODeadline?

    /// The most bytes written at once when several parts are due.
    static let largestWrite = 64 * 1024

    init(body: [UInt8], pacing: BodyPacing) {
        self.body = body
        slices = pacing.slices(ofBodyCount: body.count)
    }

    /// What to do at `now`: write the parts due (those whose time has come, up to ``largestWrite``
    /// bytes beyond the first), wait for the next one, or end.
    mutating func step(now: NIODeadline) -> BodyStreamStep {
        let start = self.start ?? now
        self.start = start
        guard next < slices.count else { return .end }
        let due = start + .nanoseconds(TonearmServer.nanoseconds(slices[next].offset))
        guard due <= now else { return .wait(until: due) }
        let first = slices[next].range.lowerBound
        var end = slices[next].range.upperBound
        next += 1
        while next < slices.count, end - first < Self.largestWrite,
            start + .nanoseconds(TonearmServer.nanoseconds(slices[next].offset)) <= now
        {
            end = slices[next].range.upperBound
            next += 1
        }
        return .write(Array(body[first..<end]))
    }
}

/// A ``PacedSchedule`` as the writer's stream source. The writer asks on the connection's event loop,
/// one call at a time; the schedule is behind a lock all the same (uncontended), so the source is
/// plainly `Sendable`.
final class PacedBody: BodyStreamSource {
    private let schedule: Mutex<PacedSchedule>

    init(body: [UInt8], pacing: BodyPacing) {
        schedule = Mutex(PacedSchedule(body: body, pacing: pacing))
    }

    func next(now: NIODeadline) -> BodyStreamStep {
        schedule.withLock { $0.step(now: now) }
    }
}
