import Testing
@testable import TonearmServer

/// The paced streams' timer wheel: waiters due in the same millisecond share one timer, are woken in the
/// order they asked, and never before their deadline.
@Suite("Server: the wake-up wheel of paced streams")
struct WakeupWheelTests {
    private static let millisecond: UInt64 = 1_000_000

    @Test("A thousand waiters due within one millisecond share one timer, and are woken in the order they asked")
    func oneTimerPerMillisecond() {
        var wheel = WakeupWheel<Int>()
        var timers: [UInt64] = []
        for waiter in 0..<1_000 {
            // All due within (100 ms, 101 ms]: one slot.
            if let firing = wheel.add(waiter, dueAt: 100 * Self.millisecond + 1 + UInt64(waiter) * 999) { timers.append(firing) }
        }
        #expect(timers == [101 * Self.millisecond])
        #expect(wheel.count == 1_000)
        #expect(wheel.take(firingAt: 101 * Self.millisecond) == Array(0..<1_000))
        #expect(wheel.count == 0)
        #expect(wheel.take(firingAt: 101 * Self.millisecond).isEmpty)
    }

    @Test("A waiter is never woken before its deadline, and at most a millisecond after it", arguments: [
        UInt64(0), 1, 999_999, 1_000_000, 1_000_001, 123_456_789_012, UInt64.max - 1, UInt64.max,
    ])
    func neverEarly(deadline: UInt64) {
        let firing = WakeupWheel<Int>.firingTime(of: deadline)
        if deadline <= UInt64.max - Self.millisecond {
            #expect(firing >= deadline)
            #expect(firing - deadline < Self.millisecond)
            #expect(firing % Self.millisecond == 0)
        } else {
            // Beyond the last slot boundary (NIODeadline.distantFuture): the last one, not an overflow.
            #expect(firing == (UInt64.max / Self.millisecond) * Self.millisecond)
        }
    }

    @Test("Waiters of different milliseconds get a timer each, and a slot taken leaves the others")
    func slotsApart() {
        var wheel = WakeupWheel<String>()
        #expect(wheel.add("a", dueAt: 5 * Self.millisecond) == 5 * Self.millisecond)
        #expect(wheel.add("b", dueAt: 5 * Self.millisecond + 1) == 6 * Self.millisecond)
        #expect(wheel.add("c", dueAt: 5 * Self.millisecond) == nil)
        #expect(wheel.take(firingAt: 5 * Self.millisecond) == ["a", "c"])
        // The slot fired: a waiter for it again opens a new one (its own timer).
        #expect(wheel.add("d", dueAt: 5 * Self.millisecond) == 5 * Self.millisecond)
        #expect(wheel.take(firingAt: 6 * Self.millisecond) == ["b"])
        #expect(wheel.count == 1)
    }
}
