import NIOCore
import Testing
@testable import TonearmServer

/// The live feed's decisions, driven with instants of the test's own: no test waits for a look or a
/// keep-alive.
@Suite("Server: the inspector's live feed")
struct InspectorFeedTests {
    private static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    private static let timing = InspectorFeed.Timing(lookInterval: .milliseconds(100), keepAliveInterval: .seconds(15), batch: 250)

    @Test("The state goes first, then the exchanges after the page's last, then a wait for the next look")
    func firstSteps() {
        var feed = InspectorFeed(after: 4, now: Self.start, timing: Self.timing)
        #expect(feed.next(now: Self.start, newest: 9, fingerprint: 1) == .sendState)
        #expect(feed.next(now: Self.start, newest: 9, fingerprint: 1) == .sendExchanges(after: 4, limit: 250))
        #expect(feed.next(now: Self.start, newest: 9, fingerprint: 1) == .wait(until: Self.start + .milliseconds(100)))
    }

    @Test("New exchanges and a changed state are sent at the next look; nothing new is a wait")
    func laterLooks() {
        var feed = InspectorFeed(after: -1, now: Self.start, timing: Self.timing)
        _ = feed.next(now: Self.start, newest: -1, fingerprint: 1)
        let look = Self.start + .milliseconds(100)
        #expect(feed.next(now: look, newest: -1, fingerprint: 1) == .wait(until: look + .milliseconds(100)))
        #expect(feed.next(now: look, newest: 0, fingerprint: 2) == .sendState)
        #expect(feed.next(now: look, newest: 0, fingerprint: 2) == .sendExchanges(after: -1, limit: 250))
        // The read found more than the look saw: the feed goes on from what was sent.
        feed.sent(through: 3)
        #expect(feed.lastSent == 3)
        #expect(feed.next(now: look, newest: 3, fingerprint: 2) == .wait(until: look + .milliseconds(100)))
    }

    @Test("Fifteen seconds without a send bring a keep-alive; a send puts it off")
    func keepAlive() {
        var feed = InspectorFeed(after: -1, now: Self.start, timing: Self.timing)
        _ = feed.next(now: Self.start, newest: -1, fingerprint: 1)
        let nearly = Self.start + .seconds(15) - .milliseconds(50)
        #expect(feed.next(now: nearly, newest: -1, fingerprint: 1) == .wait(until: Self.start + .seconds(15)))
        #expect(feed.next(now: Self.start + .seconds(15), newest: -1, fingerprint: 1) == .keepAlive)
        let later = Self.start + .seconds(20)
        #expect(feed.next(now: later, newest: 0, fingerprint: 1) == .sendExchanges(after: -1, limit: 250))
        #expect(feed.next(now: later + .seconds(14), newest: 0, fingerprint: 1) == .wait(until: later + .seconds(14) + .milliseconds(100)))
        #expect(feed.next(now: later + .seconds(15), newest: 0, fingerprint: 1) == .keepAlive)
    }

    @Test("Under a steady stream of exchanges, one event of each kind per look, not one per write")
    func onePerLook() {
        var feed = InspectorFeed(after: -1, now: Self.start, timing: Self.timing)
        #expect(feed.next(now: Self.start, newest: 10, fingerprint: 1) == .sendState)
        #expect(feed.next(now: Self.start, newest: 10, fingerprint: 1) == .sendExchanges(after: -1, limit: 250))
        // The part was written 10 ms later and more came meanwhile: the feed waits for its next look.
        let soon = Self.start + .milliseconds(10)
        #expect(feed.next(now: soon, newest: 20, fingerprint: 2) == .wait(until: Self.start + .milliseconds(100)))
        let look = Self.start + .milliseconds(100)
        #expect(feed.next(now: look, newest: 30, fingerprint: 3) == .sendState)
        #expect(feed.next(now: look, newest: 30, fingerprint: 3) == .sendExchanges(after: 10, limit: 250))
        #expect(feed.next(now: look + .milliseconds(1), newest: 31, fingerprint: 4) == .wait(until: look + .milliseconds(100)))
    }

    @Test("However far behind, one look sends one batch: the feed skips to the newest")
    func neverFallsBehind() {
        var feed = InspectorFeed(after: -1, now: Self.start, timing: Self.timing)
        _ = feed.next(now: Self.start, newest: -1, fingerprint: 1)
        #expect(feed.next(now: Self.start, newest: 100_000, fingerprint: 1) == .sendExchanges(after: -1, limit: 250))
        #expect(feed.lastSent == 100_000)
        #expect(feed.next(now: Self.start, newest: 100_000, fingerprint: 1) == .wait(until: Self.start + .milliseconds(100)))
    }

    @Test("A stream that ended after its head was sent goes out as a completion at the next look, after the exchanges waiting; completions from before the page opened are not sent")
    func completions() {
        var feed = InspectorFeed(after: -1, completions: 3, now: Self.start, timing: Self.timing)
        _ = feed.next(now: Self.start, newest: 0, completions: 3, fingerprint: 1)
        #expect(feed.next(now: Self.start, newest: 0, completions: 3, fingerprint: 1) == .sendExchanges(after: -1, limit: 250))
        // The socket listed as exchange 0 ends: one completion more, sent at the next look.
        #expect(feed.next(now: Self.start, newest: 0, completions: 4, fingerprint: 1) == .wait(until: Self.start + .milliseconds(100)))
        let look = Self.start + .milliseconds(100)
        #expect(feed.next(now: look, newest: 1, completions: 4, fingerprint: 1) == .sendExchanges(after: 0, limit: 250))
        let next = look + .milliseconds(100)
        #expect(feed.next(now: look + .milliseconds(50), newest: 1, completions: 4, fingerprint: 1) == .wait(until: next))
        #expect(feed.next(now: next, newest: 1, completions: 4, fingerprint: 1) == .sendCompleted(after: 3))
        #expect(feed.completionsSent == 4)
        #expect(feed.next(now: next, newest: 1, completions: 4, fingerprint: 1) == .wait(until: next + .milliseconds(100)))
    }
}
