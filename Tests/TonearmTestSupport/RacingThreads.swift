import Foundation
import Synchronization

/// Real threads rather than tasks: Swift's cooperative pool has as many threads as cores (two on CI),
/// and more threads than cores, preempted in the middle of an operation, is what shakes out
/// interleavings.
public enum RacingThreads {
    /// Runs `body(0)`, …, `body(count - 1)` each on a thread of its own, all at once, and returns their
    /// results in that order once every one has finished.
    public static func run<Result: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> Result) -> [Result] {
        let results = Results<Result>(count: count)
        for number in 0..<count {
            Thread { results.finish(number, with: body(number)) }.start()
        }
        return results.waitForAll()
    }

    /// One result slot per thread. Not a `Mutex`: ThreadSanitizer cannot see a contended `Mutex` hand
    /// over (it waits in the kernel, inside the uninstrumented standard library) and would report races
    /// on what it guards.
    ///
    /// `@unchecked Sendable` is safe because each slot is written by its own thread only, before that
    /// thread's releasing increment of `finished`, and read only by ``waitForAll()`` after an acquiring
    /// load has seen every increment; the slots are freed in `deinit`, when no thread holds the object.
    private final class Results<Result: Sendable>: @unchecked Sendable {
        private let slots: UnsafeMutablePointer<Result?>
        private let count: Int
        private let finished = Atomic<Int>(0)

        init(count: Int) {
            self.count = count
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil, count: count)
        }

        deinit {
            slots.deinitialize(count: count)
            slots.deallocate()
        }

        func finish(_ number: Int, with result: Result) {
            slots[number] = result
            finished.add(1, ordering: .releasing)
        }

        func waitForAll() -> [Result] {
            while finished.load(ordering: .acquiring) < count { Thread.sleep(forTimeInterval: 0.001) }
            return (0..<count).compactMap { slots[$0] }
        }
    }
}

