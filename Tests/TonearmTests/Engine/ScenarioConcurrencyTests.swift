import Foundation
import Testing
import TonearmTestSupport
@testable import Tonearm

/// Scenario state is guarded by a `Mutex`, not lock-free, and a step's strings are an immutable shared
/// object: these run in `swift test` only. Under
/// ThreadSanitizer (scripts/tsan.sh) a contended `Mutex` hands over through the kernel inside the
/// uninstrumented standard library, so TSan would report races on state the lock does guard.
@Suite("Scenario state under concurrency")
struct ScenarioConcurrencyTests {
    @Test("a scenario cycle walked on many threads while the engine rewinds always has a stub to answer")
    func scenarioWalkWithResets() throws {
        let request = Fixtures.get("https://shop.example/cycle")
        let steps = [("Started", "A"), ("A", "B"), ("B", "Started")]
        let engine = ReplayEngine(tracks: steps.enumerated().map { offset, step in
            Track(request: request, response: Response(status: 200 + offset),
                  scenario: ScenarioStep("cycle", requiredState: step.0, newState: step.1))
        }, strategy: .uniquePlay)
        let misses = RacingThreads.run(5) { thread -> Int in
            if thread == 0 {
                for _ in 0..<30 {
                    engine.reset()
                    Thread.sleep(forTimeInterval: 0.001)
                }
                return 0
            }
            return (0..<800).filter { _ in engine.match(request).hit == nil }.count
        }
        #expect(misses.reduce(0, +) == 0, "in every state exactly one stub answers")
        #expect(["Started", "A", "B"].contains(engine.scenario(named: "cycle")?.state))
    }

    @Test("scenario steps shared by many threads keep their own strings while copies are made, changed and compared")
    func scenarioStepsSharedConcurrently() {
        // Each step's strings are one object shared by every copy (what tracks copied on every hit hold):
        // threads copy the shared steps, change their copies (which makes new objects) and compare them,
        // all at once, and every step must still read the strings it was made with.
        let shared = (0..<50).map { number in
            ScenarioStep("shared \(number)", requiredState: "from \(number % 7)", newState: "to \(number % 5)")
        }
        let wrong = RacingThreads.run(6) { thread -> Int in
            (0..<2_000).filter { number in
                let original = shared[number % shared.count]
                var copy = original
                let sharedIntact = copy == original && copy.name == "shared \(number % shared.count)"
                    && copy.requiredState == "from \(number % shared.count % 7)" && copy.newState == "to \(number % shared.count % 5)"
                copy.newState = "thread \(thread) step \(number)"
                let changed = copy != original && copy.name == original.name && copy.newState == "thread \(thread) step \(number)"
                    && original.newState == "to \(number % shared.count % 5)"
                return !sharedIntact || !changed
            }.count
        }
        #expect(wrong.reduce(0, +) == 0)
    }
}
