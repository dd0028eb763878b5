import NIOCore
import Synchronization
import Tonearm

/// One loaded cassette's replayed answers as ``AnswerFraming`` encodes them for the common request
/// (HTTP/1.1, kept alive, not `HEAD`), each encoded on its first use and written as it is from then on.
///
/// What answered names the answer: a track's response never changes (positions are never reused, and a
/// cassette loaded anew brings its own cache), nor does a rule's. Answers the server rewrites
/// (`--rewrite-urls`) are not kept. Memory is bounded: answers over ``maximumAnswerBytes`` are encoded
/// each time, and none is added once ``maximumBytes`` are kept, so a cassette of large bodies does not
/// hold each of them twice.
final class EncodedAnswers: Sendable {
    /// A track by its position, or a rule by its sequence number.
    struct Key: Hashable, Sendable {
        var position: Int
        var isRule: Bool
    }

    /// The cache and the key of one answer, carried from what answered to the connection that writes it.
    struct Slot: Sendable {
        let answers: EncodedAnswers
        let key: Key

        /// The answer's bytes, encoded by `encode` the first time.
        func buffer(encode: () -> ByteBuffer?) -> ByteBuffer? {
            answers.buffer(for: key, encode: encode)
        }
    }

    static let maximumAnswerBytes = 64 * 1024
    static let maximumBytes = 64 * 1024 * 1024

    private struct State {
        var buffers: [Key: ByteBuffer] = [:]
        var bytes = 0
    }

    private let state = Mutex(State())

    /// The slot of the answer `source` names; `nil` for a custom strategy's, which may vary.
    func slot(for source: Hit.Source) -> Slot? {
        switch source {
        case .track(let position): Slot(answers: self, key: Key(position: position, isRule: false))
        case .rule(_, let position): Slot(answers: self, key: Key(position: position, isRule: true))
        case .custom: nil
        }
    }

    private func buffer(for key: Key, encode: () -> ByteBuffer?) -> ByteBuffer? {
        if let kept = state.withLock({ $0.buffers[key] }) { return kept }
        // Encoded outside the lock: two connections meeting a new answer at once both encode it, equally.
        guard let encoded = encode() else { return nil }
        let size = encoded.capacity
        if size <= Self.maximumAnswerBytes {
            state.withLock { state in
                guard state.bytes + size <= Self.maximumBytes, state.buffers.updateValue(encoded, forKey: key) == nil else { return }
                state.bytes += size
            }
        }
        return encoded
    }
}
