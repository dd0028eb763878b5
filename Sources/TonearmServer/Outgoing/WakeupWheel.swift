/// The decisions of a timer wheel with one slot per 250 µs: which waiters share a wake-up, when
/// it fires, and in which order they are woken. A value with no clock and no I/O; ``PacedWakeups``
/// executes it on an event loop.
///
/// Why a wheel: a paced replay waits between its parts, and a thousand replays started together wait
/// for the same instants. One timer per waiter put a thousand tasks into the event loop's heap for every
/// instant (its sifting, and re-arming the kernel's timer, were a fifth of the server's time per part),
/// and a loop woken for each deadline sleeps and wakes a thousand times; here they share one timer per
/// slot. The slot's width trades precision for wake-ups: measured with `scripts/bench-streams.sh`
/// (1,000 streams), exact deadlines cost 40-44 µs of server CPU per part, 1 ms slots 24-32 µs with up
/// to 1 ms of added jitter, 250 µs slots 26-28 µs with up to 0.25 ms. Waiters of one slot are woken in the order they asked,
/// so a stream keeps its place in a burst from one part to the next, and its parts keep their spacing.
struct WakeupWheel<Waiter> {
    /// The width of a slot in nanoseconds: a waiter is woken within this much after its deadline (on an
    /// idle loop), never before it.
    static var resolutionNanoseconds: UInt64 { 250_000 }

    /// The waiters of each slot (keyed by the slot's firing time), in the order they were added.
    private var slots: [UInt64: [Waiter]] = [:]

    /// How many waiters wait, in all slots.
    private(set) var count = 0

    init() {}

    /// Adds `waiter`, due at `deadline` (nanoseconds on the loop's clock), to the slot that fires at the
    /// first slot boundary at or after it. Returns that firing time when the slot is new (the caller sets
    /// one timer for it), `nil` when the waiter joins a slot already timed.
    mutating func add(_ waiter: Waiter, dueAt deadline: UInt64) -> UInt64? {
        let firing = Self.firingTime(of: deadline)
        count += 1
        if slots[firing]?.append(waiter) != nil { return nil }
        slots[firing] = [waiter]
        return firing
    }

    /// Takes the waiters of the slot firing at `firing`, in the order they were added (none when the
    /// slot was already taken).
    mutating func take(firingAt firing: UInt64) -> [Waiter] {
        guard let waiters = slots.removeValue(forKey: firing) else { return [] }
        count -= waiters.count
        return waiters
    }

    /// The slot boundary at or after `deadline`; the last representable one for a deadline beyond it
    /// (`NIODeadline.distantFuture`), rather than an overflow.
    static func firingTime(of deadline: UInt64) -> UInt64 {
        let (slots, remainder) = deadline.quotientAndRemainder(dividingBy: resolutionNanoseconds)
        let rounded = remainder == 0 ? slots : slots + 1
        let (firing, overflow) = rounded.multipliedReportingOverflow(by: resolutionNanoseconds)
        return overflow ? (UInt64.max / resolutionNanoseconds) * resolutionNanoseconds : firing
    }
}
