import NIOCore

/// Wakes paced streams at their parts' times, with one timer per event loop and 250 µs slot
/// (``WakeupWheel``) rather than one per stream and part.
///
/// One wheel per event loop of the server's group, made when the server starts; a stream waits on the
/// wheel of its connection's loop, and is woken on it.
struct PacedWakeups: Sendable {
    private let wheels: [ObjectIdentifier: LoopWheel]

    init(group: any EventLoopGroup) {
        var wheels: [ObjectIdentifier: LoopWheel] = [:]
        for loop in group.makeIterator() {
            wheels[ObjectIdentifier(loop)] = LoopWheel(loop: loop)
        }
        self.wheels = wheels
    }

    /// Calls `wake` on `loop` (the caller's, which it must be on) once `deadline` has passed, within
    /// ``WakeupWheel/resolutionNanoseconds``: after the waiters that asked for the same slot
    /// before it.
    func wake(on loop: any EventLoop, at deadline: NIODeadline, _ wake: @escaping () -> Void) {
        guard let wheel = wheels[ObjectIdentifier(loop)] else {
            // A loop of another group (not one a server's connection runs on): its own timer.
            loop.assumeIsolated().scheduleTask(deadline: deadline, wake)
            return
        }
        wheel.add(wake, dueAt: deadline)
    }
}

/// One event loop's ``WakeupWheel`` and the timers that fire its slots.
private final class LoopWheel: Sendable {
    private let loop: any EventLoop
    /// Touched only on `loop`.
    private let wheel: NIOLoopBoundBox<WakeupWheel<() -> Void>>

    init(loop: any EventLoop) {
        self.loop = loop
        // Made off the loop (the server starts elsewhere): an empty wheel, sent into the box.
        wheel = .makeBoxSendingValue(WakeupWheel(), eventLoop: loop)
    }

    func add(_ wake: @escaping () -> Void, dueAt deadline: NIODeadline) {
        guard let firing = wheel.value.add(wake, dueAt: deadline.uptimeNanoseconds) else { return }
        loop.assumeIsolated().scheduleTask(deadline: .uptimeNanoseconds(firing)) { [self] in
            for wake in wheel.value.take(firingAt: firing) { wake() }
        }
    }
}
