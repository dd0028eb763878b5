/// The positions of the rules a request's literal search selects, in the order found: the first
/// ``inlineCapacity`` inline, the rest in an array, so that the common request (a handful of candidates)
/// allocates nothing for them. Selecting rules this way once cost an allocation per request on top of
/// the server's six (docs/benchmarks.md, "CI: the request path's instruction and allocation limits").
struct CandidateList {
    static let inlineCapacity = 8

    private var inline: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Every candidate once there are more than fit inline (the inline ones copied in first).
    private var spilled: [Int] = []
    private(set) var count = 0

    mutating func append(_ position: Int) {
        let index = count
        if index < Self.inlineCapacity {
            withUnsafeMutableBytes(of: &inline) { $0.storeBytes(of: position, toByteOffset: index * MemoryLayout<Int>.stride, as: Int.self) }
        } else {
            if index == Self.inlineCapacity {
                spilled.reserveCapacity(4 * Self.inlineCapacity)
                withUnsafeBytes(of: inline) { spilled.append(contentsOf: $0.bindMemory(to: Int.self)) }
            }
            spilled.append(position)
        }
        count = index + 1
    }

    mutating func append(contentsOf positions: Range<Int>) {
        for position in positions { append(position) }
    }

    /// Sorts the candidates by `areInIncreasingOrder`, then calls `body` with each, a repeated one once,
    /// while it returns `true`.
    mutating func sortedForEach(by areInIncreasingOrder: (Int, Int) -> Bool, _ body: (Int) -> Bool) {
        let count = count
        guard count > Self.inlineCapacity else {
            withUnsafeMutableBytes(of: &inline) { raw in
                var candidates = UnsafeMutableBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: Int.self), count: count)
                if count > 1 { candidates.sort(by: areInIncreasingOrder) }
                Self.visit(UnsafeBufferPointer(candidates), body)
            }
            return
        }
        spilled.sort(by: areInIncreasingOrder)
        spilled.withUnsafeBufferPointer { Self.visit($0, body) }
    }

    private static func visit(_ candidates: UnsafeBufferPointer<Int>, _ body: (Int) -> Bool) {
        var previous = -1
        for position in candidates where position != previous {
            previous = position
            guard body(position) else { return }
        }
    }
}
