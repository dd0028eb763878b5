import NIOCore
import Synchronization

/// What one connection is doing, as its event loop last saw it, for ``ConnectionRegistry`` to read from
/// whichever loop accepts a new connection when the server is full.
///
/// The phase and the time it began are packed into one atomic word, so a reader never sees a phase
/// with another phase's time.
final class ConnectionActivity: Sendable {
    /// The phases, in the order connections are shed: idle first, then slow heads; busy never.
    enum Phase: UInt64, Comparable {
        /// Kept alive between requests, nothing of the next request received.
        case idle = 0
        /// Waiting for a request head: just accepted, or part of a head received.
        case awaitingHead = 1
        /// Reading a body, or answering (a replayed delay, the network), or writing the answer.
        case busy = 2

        static func < (lhs: Phase, rhs: Phase) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The low 62 bits hold the uptime in nanoseconds when the phase began; the top two the phase.
    private let packed: Atomic<UInt64>
    private static let timeMask: UInt64 = (1 << 62) - 1

    init(_ phase: Phase = .awaitingHead, since: NIODeadline = .now()) {
        packed = Atomic(Self.pack(phase, since))
    }

    /// Records that the connection entered `phase` at `since`.
    func enter(_ phase: Phase, since: NIODeadline = .now()) {
        packed.store(Self.pack(phase, since), ordering: .relaxed)
    }

    /// The phase and when it began (uptime nanoseconds).
    var current: (phase: Phase, since: UInt64) {
        let word = packed.load(ordering: .relaxed)
        return (Phase(rawValue: word >> 62) ?? .busy, word & Self.timeMask)
    }

    private static func pack(_ phase: Phase, _ since: NIODeadline) -> UInt64 {
        phase.rawValue << 62 | (since.uptimeNanoseconds & timeMask)
    }
}
