/// The read lengths a byte stream arrives in, derived from the stream itself so that a saved input replays
/// the same way: a hash of the bytes picks the largest read (1, 3, 16 or 300 bytes) and seeds the lengths,
/// so small reads cut method tokens, header names and chunk sizes at every position across runs.
struct SplitReads {
    let lengths: [Int]

    init(_ bytes: [UInt8]) {
        // FNV-1a, then SplitMix64: any deterministic mixing does; these are short and well known.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var state = hash
        func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
            return mixed ^ (mixed >> 31)
        }
        let largest = [1, 3, 16, 300][Int(hash % 4)]
        var lengths: [Int] = []
        var left = bytes.count
        while left > 0 {
            let length = min(left, 1 + Int(next() % UInt64(largest)))
            lengths.append(length)
            left -= length
        }
        self.lengths = lengths
    }
}
