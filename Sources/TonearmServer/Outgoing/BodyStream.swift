import NIOCore
import Tonearm

/// A body written over time as its source produces it: a live feed of Server-Sent Events (the
/// inspector's), whose parts are not known when its head is written, or a body known in advance and
/// written at its parts' times (``PacedBody``: a recorded stream, a dribble). ``ResponseWriter`` writes
/// one of unknown length chunked to HTTP/1.1 and to HTTP/1.0 until the connection closes, and a known
/// one after a head stating its `Content-Length`.
///
/// The writer asks the source for its next step only once the previous part is written (handed to the
/// socket), so a client that stops reading stops the source: nothing piles up in memory for it. A
/// reference, compared by identity: a stream is one producer, never copied.
package final class BodyStream: Sendable, Equatable {
    /// What produces the parts.
    let source: any BodyStreamSource
    /// The whole body, when it is known in advance (what the journal shows, and its length the head's).
    let knownBody: [UInt8]?

    init(_ source: any BodyStreamSource, knownBody: [UInt8]? = nil) {
        self.source = source
        self.knownBody = knownBody
    }

    /// `body` written as `pacing` says.
    static func paced(_ body: [UInt8], _ pacing: BodyPacing) -> BodyStream {
        BodyStream(PacedBody(body: body, pacing: pacing), knownBody: body)
    }

    package static func == (lhs: BodyStream, rhs: BodyStream) -> Bool { lhs === rhs }
}

/// What produces a streamed body, one step at a time: its decisions are a value's (a feed's state
/// machine), the writer only executes them on the connection's event loop.
protocol BodyStreamSource: Sendable {
    /// The next step at `now` (the event loop's clock): bytes to write now, a time to ask again, to be
    /// woken, or the end. Called on the connection's event loop, one call at a time, after the previous
    /// bytes were written.
    func next(now: NIODeadline) -> BodyStreamStep

    /// Called once before the first ``next(now:)``: `wake` asks the writer to call ``next(now:)`` again,
    /// for a source that answered ``BodyStreamStep/idle`` (call it once per idle answer).
    func attach(wake: @escaping @Sendable () -> Void)

    /// The connection closed: the writer will not ask again (a source relaying an upstream stops it).
    func stopped()

    /// The server is stopping: `true` when the source ends its body itself, soon (a relayed upstream
    /// stream being recorded is cut there, so what came is kept), and the connection closes after it;
    /// `false` to have the connection closed at once (a live feed or a paced replay has no end worth
    /// waiting for).
    func serverStopping() -> Bool
}

extension BodyStreamSource {
    func attach(wake: @escaping @Sendable () -> Void) {}
    func stopped() {}
    func serverStopping() -> Bool { false }
}

/// What a ``BodyStreamSource`` does next.
enum BodyStreamStep: Sendable, Equatable {
    /// Write these bytes now (as one chunk), then ask again.
    case write([UInt8])
    /// Nothing to write until `deadline`: ask again then.
    case wait(until: NIODeadline)
    /// Nothing to write until the source calls the `wake` it was attached with.
    case idle
    /// The body is complete.
    case end
}
