import PropertyBased
import Testing
@testable import TonearmServer

/// The journal keeps its entries in a ``MovingQueue``: whatever the order of appends and removals, it
/// must hold what a plain array would, oldest first, and free what it drops.
@Suite("Server: the journal's queue")
struct MovingQueueTests {
    @Test("Any sequence of appends, removals of the oldest, writes and clears leaves what an array would")
    func behavesAsAnArray() async {
        // 1: remove the oldest, 2: overwrite an element, 3 (1 time in 20): clear, keeping capacity or not; else append.
        let operation = zip(Gen.int(in: 0...3), Gen.int(in: 0...99))
        await propertyCheck(count: 200, input: operation.array(of: 1...300)) { operations in
            var queue = MovingQueue<String>()
            var model: [String] = []
            for (step, (kind, value)) in operations.enumerated() {
                switch kind {
                case 1:
                    #expect(queue.popFirst() == (model.isEmpty ? nil : model.removeFirst()))
                case 2 where !model.isEmpty:
                    let index = value % model.count
                    queue[index] = "set \(step)"
                    model[index] = "set \(step)"
                case 3 where value < 5:
                    queue.removeAll(keepingCapacity: value.isMultiple(of: 2))
                    model.removeAll()
                default:
                    // Appends are the most frequent step, so the ring wraps and grows many times.
                    queue.append("\(step):\(value)")
                    model.append("\(step):\(value)")
                }
                #expect(Array(queue) == model)
                #expect(queue.first == model.first)
            }
        }
    }

    @Test("A removed element is released: the queue keeps no reference to what it gave back")
    func releasesRemovedElements() {
        final class Tracked {}
        var queue = MovingQueue<Tracked>()
        weak var oldest: Tracked?
        do {
            let tracked = Tracked()
            oldest = tracked
            queue.append(tracked)
        }
        for _ in 0..<40 { queue.append(Tracked()) }
        #expect(oldest != nil)
        _ = queue.popFirst()
        #expect(oldest == nil)
        #expect(queue.count == 40)
    }
}
