import Testing
@testable import TonearmServer

/// The paced streams' timer wheel: waiters due in the same slot (250 µs) share one timer, are woken in the
/// order they asked, and never before their deadline.
@Suite("Server: the wake-up wheel of paced streams")
struct WakeupWheelTests {
    /// The width of a slot (250 µs).
    private static let slot: UInt64 = WakeupWheel<Int>.resolutionNanoseconds

    @Test("A thousand waiters due within one slot share one timer, and are woken in the order they asked")
    func oneTimerPerMillisecond() {
        var wheel = WakeupWheel<Int>()
        var timers: [UInt64] = []
        for waiter in 0..<1_000 {
            // All due within one slot's width.
            if let firing = wheel.add(waiter, dueAt: 100 * Self.slot + 1 + UInt64(waiter) * 249) { timers.append(firing) }
        }
        #expect(timers == [101 * Self.slot])
        #expect(wheel.count == 1_000)
        #expect(wheel.take(firingAt: 101 * Self.slot) == Array(0..<1_000))
        #expect(wheel.count == 0)
        #expect(wheel.take(firingAt: 101 * Self.slot).isEmpty)
    }

    @Test("A waiter is never woken before its deadline, and at most a slot's width after it", arguments: [
        UInt64(0), 1, 249_999, 250_000, 250_001, 999_999, 123_456_789_012, UInt64.max - 1, UInt64.max,
    ])
    func neverEarly(deadline: UInt64) {
        let firing = WakeupWheel<Int>.firingTime(of: deadline)
        if deadline <= UInt64.max - Self.slot {
            #expect(firing >= deadline)
            #expect(firing - deadline < Self.slot)
            #expect(firing % Self.slot == 0)
        } else {
            // Beyond the last slot boundary (NIODeadline.distantFuture): the last one, not an overflow.
            #expect(firing == (UInt64.max / Self.slot) * Self.slot)
        }
    }

    @Test("Waiters of different slots get a timer each, and a slot taken leaves the others")
    func slotsApart() {
        var wheel = WakeupWheel<String>()
        #expect(wheel.add("a", dueAt: 5 * Self.slot) == 5 * Self.slot)
        #expect(wheel.add("b", dueAt: 5 * Self.slot + 1) == 6 * Self.slot)
        #expect(wheel.add("c", dueAt: 5 * Self.slot) == nil)
        #expect(wheel.take(firingAt: 5 * Self.slot) == ["a", "c"])
        // The slot fired: a waiter for it again opens a new one (its own timer).
        #expect(wheel.add("d", dueAt: 5 * Self.slot) == 5 * Self.slot)
        #expect(wheel.take(firingAt: 6 * Self.slot) == ["b"])
        #expect(wheel.count == 1)
    }
}
