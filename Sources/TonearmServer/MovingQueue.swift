/// A first-in, first-out ring that moves its elements in and out.
///
/// NIO's `CircularBuffer` copies an element as it appends it and again as it removes it (then destroys
/// the original): for a journal entry, a retain and a release of each string and array it holds, about
/// 1,000 instructions of every journaled request (docs/benchmarks-history.md, "One answer object"). Here
/// an appended element is taken as it is given and a removed one is taken out of its slot.
struct MovingQueue<Element>: RandomAccessCollection, MutableCollection {
    /// The ring; `nil` outside the `count` slots from `head`.
    private var slots: [Element?] = []
    /// The slot of the oldest element.
    private var head = 0
    /// How many elements there are.
    private(set) var count = 0

    /// An empty queue.
    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The element `offset` places after the oldest.
    subscript(offset: Int) -> Element {
        get {
            // Every slot of the `count` from `head` holds an element, so `nil` never shows.
            guard let element = slots[slot(offset)] else { preconditionFailure("MovingQueue slot \(offset) is empty") }
            return element
        }
        set { slots[slot(offset)] = newValue }
    }

    /// Adds `element` after the newest.
    mutating func append(_ element: consuming Element) {
        if count == slots.count { grow() }
        slots[slot(count)] = consume element
        count += 1
    }

    /// Removes and returns the oldest element; `nil` when there is none.
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head = head + 1 == slots.count ? 0 : head + 1
        count -= 1
        return element
    }

    /// Removes every element; with `keepingCapacity`, keeps the ring for as many again.
    mutating func removeAll(keepingCapacity: Bool) {
        if keepingCapacity {
            for index in slots.indices { slots[index] = nil }
        } else {
            slots = []
        }
        head = 0
        count = 0
    }

    /// The ring's slot for the element `offset` places after the oldest (`offset` ≤ `count` < slots).
    private func slot(_ offset: Int) -> Int {
        let slot = head + offset
        return slot < slots.count ? slot : slot - slots.count
    }

    /// Doubles the ring (at least 16 slots), the elements moved to its start in order.
    private mutating func grow() {
        var larger = [Element?]()
        larger.reserveCapacity(Swift.max(16, slots.count * 2))
        for offset in 0..<count { larger.append(slots[slot(offset)].take()) }
        while larger.count < larger.capacity { larger.append(nil) }
        slots = larger
        head = 0
    }
}

extension MovingQueue: Sendable where Element: Sendable {}
