import Foundation
import Synchronization
import Tonearm

/// Collects tracks from any number of concurrent tasks and saves them as a native cassette.
///
/// Each track is redacted as it is recorded, so secrets never reach memory that is written out.
/// Tracks are kept in the order `record` calls take the lock; none is lost under contention. Saving
/// writes atomically, and concurrent saves are serialised so an older snapshot never replaces a newer one.
public final class CassetteRecorder: Sendable {
    /// Where ``save()`` writes.
    public let url: URL
    /// What is hidden before recording.
    public let redaction: Redaction
    private let state: Mutex<Cassette>
    private let saving = Mutex<Void>(())

    /// A recorder writing to `url`, starting from `cassette` (e.g. a cassette loaded to be extended).
    public init(url: URL, cassette: Cassette = Cassette(), redaction: Redaction = .default) {
        self.url = url
        self.redaction = redaction
        state = Mutex(cassette)
    }

    /// Records one exchange, redacted.
    public func record(_ track: Track, recordedAt: Date = Date(), hints: TrackHints = TrackHints()) {
        let entry = CassetteEntry(redaction.redact(track), recordedAt: recordedAt, hints: hints)
        state.withLock { $0.entries.append(entry) }
    }

    /// What has been recorded so far.
    public var cassette: Cassette {
        state.withLock { $0 }
    }

    /// Writes everything recorded so far to ``url``, atomically.
    public func save() throws(CassetteError) {
        let result: Result<Void, CassetteError> = saving.withLock { _ in
            do throws(CassetteError) {
                try NativeFormat.write(cassette, to: url)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
