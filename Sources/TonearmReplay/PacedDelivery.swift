import Tonearm

/// How bridges deliver a replayed stream (``Track/pacing``, as ``ReplaySession/streamPacing`` has it):
/// the body in its parts, each no earlier than its time after the delivery starts. The one schedule the
/// in-process bridges share (URLSession's protocol, AsyncHTTPClient's body, an OpenAPI `HTTPBody`).
package struct PacedDelivery: AsyncSequence, Sendable {
    private let body: [UInt8]
    private let slices: [(offset: Duration, range: Range<Int>)]
    private let started: ContinuousClock.Instant

    /// `body`'s parts as `pacing` times them, counted from now.
    package init(_ body: [UInt8], _ pacing: BodyPacing) {
        self.body = body
        slices = pacing.slices(ofBodyCount: body.count)
        started = .now
    }

    package func makeAsyncIterator() -> Iterator {
        Iterator(delivery: self)
    }

    /// Yields each part once its time has come; ends early when the reading task is cancelled.
    package struct Iterator: AsyncIteratorProtocol {
        fileprivate let delivery: PacedDelivery
        private var next = 0

        fileprivate init(delivery: PacedDelivery) {
            self.delivery = delivery
        }

        package mutating func next() async -> ArraySlice<UInt8>? {
            guard next < delivery.slices.count else { return nil }
            let slice = delivery.slices[next]
            next += 1
            do {
                try await Task.sleep(until: delivery.started + slice.offset, clock: .continuous)
            } catch {
                return nil
            }
            return delivery.body[slice.range]
        }
    }
}
