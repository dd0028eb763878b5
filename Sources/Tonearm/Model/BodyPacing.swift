/// How a response's body arrived over time: the body cut into parts, each with its offset from the
/// moment the response's head arrived. A recorded stream (Server-Sent Events from a chat API, a chunked
/// download, a progress feed) keeps its pacing so that replay can deliver the parts as they came,
/// rather than the whole body at once.
///
/// The body itself stays whole on the track (matching, journals, HAR and redaction see one body); the
/// pacing only says where it is cut and when each part is due. It never has to agree exactly with the
/// body it paces: ``slices(ofBodyCount:)`` gives every byte once, whatever the body's length (a body
/// redacted to another length keeps its parts' times, the last part taking what is left).
public struct BodyPacing: Sendable, Hashable {
    /// One part of the body: its length in bytes, due `offset` after the head.
    public struct Part: Sendable, Hashable {
        /// How long after the head this part is due.
        public var offset: Duration
        /// How many bytes of the body it holds.
        public var byteCount: Int

        /// A part of `byteCount` bytes due `offset` after the head.
        public init(offset: Duration, byteCount: Int) {
            self.offset = offset
            self.byteCount = byteCount
        }
    }

    /// The parts, in the order the body's bytes came.
    public var parts: [Part]

    /// Pacing made of `parts`, in body order.
    public init(parts: [Part]) {
        self.parts = parts
    }

    /// `byteCount` bytes cut into at most `pieces` parts of nearly equal length, none empty, spread
    /// evenly over `total`: the first due after `total / pieces`, the last at `total` (a slow network,
    /// as WireMock's `chunkedDribbleDelay` simulates it).
    public static func evenly(byteCount: Int, pieces: Int, over total: Duration) -> BodyPacing {
        guard byteCount > 0, pieces > 0 else { return BodyPacing(parts: []) }
        let size = byteCount / pieces + (byteCount % pieces == 0 ? 0 : 1)
        let count = byteCount / size + (byteCount % size == 0 ? 0 : 1)
        let pause = total / count
        return BodyPacing(parts: (0..<count).map { index in
            Part(offset: pause * (index + 1), byteCount: min(size, byteCount - index * size))
        })
    }

    /// What is wrong with these parts, if anything: an offset below zero, or before the previous
    /// part's (a recording's clock never goes back), or a negative length. A loader refuses such a
    /// track, naming it.
    public var problem: String? {
        var previous = Duration.zero
        for (index, part) in parts.enumerated() {
            if part.byteCount < 0 { return "part \(index) has a negative length (\(part.byteCount) bytes)" }
            if part.offset < .zero { return "part \(index) is due before the head (\(part.offset))" }
            if part.offset < previous {
                return "part \(index)'s offset (\(part.offset)) goes back before part \(index - 1)'s (\(previous))"
            }
            previous = part.offset
        }
        return nil
    }

    /// Every byte of a body of `count` bytes once, in order, each range with the time it is due: the
    /// parts' ranges while the body lasts, the bytes after the last part with it (or at once, when there
    /// are no parts). Empty parts are left out.
    public func slices(ofBodyCount count: Int) -> [(offset: Duration, range: Range<Int>)] {
        var slices: [(offset: Duration, range: Range<Int>)] = []
        var start = 0
        for part in parts where start < count {
            let end = part.byteCount >= count - start ? count : start + max(0, part.byteCount)
            if end > start { slices.append((part.offset, start..<end)) }
            start = end
        }
        if start < count {
            if let last = slices.popLast() {
                slices.append((last.offset, last.range.lowerBound..<count))
            } else {
                slices.append((parts.last?.offset ?? .zero, start..<count))
            }
        }
        return slices
    }

    /// The time from the head to the last part.
    public var duration: Duration { parts.last?.offset ?? .zero }
}
