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
    /// The connection's key in ``ConnectionRegistry``.
    let key: ObjectIdentifier

    init(key: ObjectIdentifier, _ phase: Phase = .awaitingHead, since: NIODeadline = .now()) {
        self.key = key
        packed = Atomic(Self.pack(phase, since))
    }

    /// Records that the connection entered `phase` at `since`, and returns the word that says so
    /// (see ``word``).
    ///
    /// Sequentially consistent, with the registry's tracking flag: the registry turns tracking on and
    /// then reads every word, a connection writes its word and then reads the flag, so at least one of
    /// them sees the other and the connection is never missing from the shedding queues.
    @discardableResult
    func enter(_ phase: Phase, since: NIODeadline = .now()) -> UInt64 {
        let word = Self.pack(phase, since)
        packed.store(word, ordering: .sequentiallyConsistent)
        return word
    }

    /// The phase and when it began, packed: equal to a word read earlier only while the connection
    /// has stayed in the phase it entered then.
    var word: UInt64 { packed.load(ordering: .sequentiallyConsistent) }

    /// The phase and when it began (uptime nanoseconds).
    var current: (phase: Phase, since: UInt64) { Self.unpack(word) }

    static func unpack(_ word: UInt64) -> (phase: Phase, since: UInt64) {
        (Phase(rawValue: word >> 62) ?? .busy, word & timeMask)
    }

    private static func pack(_ phase: Phase, _ since: NIODeadline) -> UInt64 {
        phase.rawValue << 62 | (since.uptimeNanoseconds & timeMask)
    }
}
