/// Where element `i` of a grow-only chunked store lives: chunk `k` holds `firstChunkSize << k`
/// elements, so a fixed directory of ``chunkCount`` chunk pointers covers any realistic size, chunks
/// never move once allocated (readers keep reading them while the store grows), and at most half of
/// the allocated elements are unused.
enum ChunkLayout {
    /// log2 of the first chunk's size.
    static let firstChunkShift = 6
    /// Directory entries: 64 << 40 elements is beyond any machine's memory.
    static let chunkCount = 40

    /// The chunk holding element `index` and the element's offset in it.
    @inline(__always)
    static func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        let scaled = (index >> firstChunkShift) &+ 1
        let chunk = Int.bitWidth &- 1 &- scaled.leadingZeroBitCount
        let chunkStart = ((1 &<< chunk) &- 1) &<< firstChunkShift
        return (chunk, index &- chunkStart)
    }

    /// The number of elements in chunk `chunk`.
    @inline(__always)
    static func size(of chunk: Int) -> Int { 1 << (firstChunkShift + chunk) }
}
