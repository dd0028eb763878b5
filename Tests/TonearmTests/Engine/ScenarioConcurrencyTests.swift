import Foundation
import Testing
@testable import Tonearm

/// Scenario state is guarded by a `Mutex`, not lock-free: these run in `swift test` only. Under
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

    @Test("scenario steps made on many threads at once keep their own strings")
    func scenarioStepsMadeConcurrently() {
        let wrong = RacingThreads.run(6) { thread -> Int in
            (0..<2_000).filter { number in
                // Steps shared between threads (the same strings) and steps only this thread makes.
                let name = number % 2 == 0 ? "shared \(number % 50)" : "thread \(thread) step \(number)"
                let step = ScenarioStep(name, requiredState: "from \(number % 7)", newState: "to \(number % 5)")
                return step.name != name || step.requiredState != "from \(number % 7)" || step.newState != "to \(number % 5)"
            }.count
        }
        #expect(wrong.reduce(0, +) == 0)
    }
}
