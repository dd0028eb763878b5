import NIOCore
import Synchronization
import Tonearm

/// The inspector's live feed as a streamed body: does what ``InspectorFeed`` decides, reading the
/// journal and the server's state, and writes each event as Server-Sent Events text (`event:`, `id:`,
/// one `data:` line of compact JSON, a blank line).
///
/// Asked by the writer on the connection's event loop, one call at a time; the feed's state is behind
/// a lock all the same (uncontended), so the source is plainly `Sendable`.
final class InspectorFeedSource: BodyStreamSource {
    private let inspector: Inspector
    private let feed: Mutex<InspectorFeed>

    init(inspector: Inspector, after: Int, now: NIODeadline, timing: InspectorFeed.Timing = InspectorFeed.Timing()) {
        self.inspector = inspector
        feed = Mutex(InspectorFeed(after: after, completions: inspector.journal.completionCount, now: now, timing: timing))
    }

    func next(now: NIODeadline) -> BodyStreamStep {
        let journal = inspector.journal
        let fingerprint = inspector.stateFingerprint
        let newest = journal.total - 1
        let completions = journal.completionCount
        switch feed.withLock({ $0.next(now: now, newest: newest, completions: completions, fingerprint: fingerprint) }) {
        case .sendState:
            return .write(Self.event("state", id: nil, data: inspector.state()))
        case .sendExchanges(let after, let limit):
            let (entries, skipped) = journal.entries(after: after, newest: limit)
            if let last = entries.last { feed.withLock { $0.sent(through: last.sequence) } }
            return .write(Self.event("exchanges", id: entries.last?.sequence, data: inspector.exchangesDocument(entries, skipped: skipped)))
        case .sendCompleted(let after):
            // Further behind than the journal remembers: the page reloads its list instead.
            let (entries, _) = journal.completed(after: after)
            return .write(Self.event("completed", id: nil, data: .object([
                "entries": entries.map { .array($0.map(InspectorDocuments.summary)) } ?? .null,
            ])))
        case .keepAlive:
            return .write(Array(": keep-alive\n\n".utf8))
        case .wait(let deadline):
            return .wait(until: deadline)
        }
    }

    /// One event: its name, its id (what a reconnecting `EventSource` resumes after), and its data on
    /// one line (compact JSON escapes every line break inside strings).
    static func event(_ name: String, id: Int?, data: JSONValue) -> [UInt8] {
        var text = "event: \(name)\n"
        if let id { text += "id: \(id)\n" }
        text += "data: " + data.canonicalText + "\n\n"
        return Array(text.utf8)
    }
}
