import NIOCore

/// A body written over time as its source produces it, after a head that states no length: a live feed
/// of Server-Sent Events (the inspector's), and any answer whose parts are not all known when its head
/// is written. ``ResponseWriter`` writes it chunked to HTTP/1.1, and to HTTP/1.0 until the connection
/// closes.
///
/// The writer asks the source for its next step only once the previous part is written (handed to the
/// socket), so a client that stops reading stops the source: nothing piles up in memory for it. A
/// reference, compared by identity: a stream is one producer, never copied.
final class BodyStream: Sendable, Equatable {
    /// What produces the parts.
    let source: any BodyStreamSource

    init(_ source: any BodyStreamSource) {
        self.source = source
    }

    static func == (lhs: BodyStream, rhs: BodyStream) -> Bool { lhs === rhs }
}

/// What produces a streamed body, one step at a time: its decisions are a value's (a feed's state
/// machine), the writer only executes them on the connection's event loop.
protocol BodyStreamSource: Sendable {
    /// The next step at `now` (the event loop's clock): bytes to write now, a time to ask again, or the
    /// end. Called on the connection's event loop, one call at a time, after the previous bytes were
    /// written.
    func next(now: NIODeadline) -> BodyStreamStep
}

/// What a ``BodyStreamSource`` does next.
enum BodyStreamStep: Sendable, Equatable {
    /// Write these bytes now (as one chunk), then ask again.
    case write([UInt8])
    /// Nothing to write until `deadline`: ask again then.
    case wait(until: NIODeadline)
    /// The body is complete.
    case end
}
