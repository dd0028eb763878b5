/// The work behind ``FormEncoding``: splitting a query or form body into pieces, canonicalising them,
/// dropping ignored names and sorting, all in scratch memory without heap allocation.
///
/// Callers get the pieces in final order, each naming where its canonical name and value bytes are, and
/// turn them into what they need (``FormPair`` values, or serialised bytes for a key) without an
/// intermediate array. Components that are already canonical, as nearly all are, are not copied at
/// all: their pieces point into the input.
enum FormCanonicalizer {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// One non-empty piece. During the scan, `name` and `value` are the raw bytes in the input; afterwards
    /// they are the canonical bytes, in the input or in scratch memory.
    struct Piece {
        var name: UnsafePointer<UInt8>
        var nameCount: Int
        var value: UnsafePointer<UInt8>
        var valueCount: Int
        /// Canonical lengths, `-1` while the component is already canonical and needs no rewrite.
        var nameRewrite: Int
        var valueRewrite: Int

        @inline(__always) var nameBytes: Bytes { Bytes(start: name, count: nameCount) }
        @inline(__always) var valueBytes: Bytes { Bytes(start: value, count: valueCount) }
    }

    /// A piece's place in the final order. The key is the first 8 bytes of the canonical name as a
    /// big-endian number, zero-padded: most names differ there, so most comparisons while sorting are one
    /// integer comparison, and sorting moves 16 bytes instead of a whole piece.
    struct Entry {
        var key: UInt64
        var piece: Int
    }

    /// The canonical pieces, readable only inside ``canonicalize(_:ignoring:sorted:_:)``.
    struct Canonical {
        /// Pieces in the input's order; `order` says which to take in what order.
        var pieces: UnsafeBufferPointer<Piece>
        var order: UnsafeBufferPointer<Entry>

        /// The piece at `position` in the final order.
        @inline(__always)
        subscript(position: Int) -> Piece { pieces[order[position].piece] }

        var count: Int { order.count }
    }

    /// Canonicalises `bytes` and runs `body` on the result; see ``FormEncoding`` for the rules.
    static func canonicalize<R>(_ bytes: Bytes, ignoring: Set<String>, sorted: Bool, _ body: (Canonical) -> R) -> R {
        let capacity = URLBytes.count(of: UInt8(ascii: "&"), in: bytes) &+ 1
        return withUnsafeTemporaryAllocation(of: Piece.self, capacity: capacity) { pieces in
            let (pieceCount, rewriteTotal) = scan(bytes, into: pieces)
            // Only components that are not canonical yet are written anew.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rewriteTotal) { scratch in
                if rewriteTotal > 0 { rewrite(UnsafeMutableBufferPointer(rebasing: pieces[0..<pieceCount]), into: scratch) }
                var kept = pieceCount
                if !ignoring.isEmpty && pieceCount > 0 {
                    kept = withCanonicalNames(ignoring) { names, ranges in
                        removeIgnored(names, ranges, from: pieces, count: pieceCount)
                    }
                }
                return withUnsafeTemporaryAllocation(of: Entry.self, capacity: max(kept, 1)) { order in
                    for index in 0..<kept {
                        order.initializeElement(at: index, to: Entry(key: sorted ? key(pieces[index].nameBytes) : 0, piece: index))
                    }
                    let entries = UnsafeMutableBufferPointer(rebasing: order[0..<kept])
                    let kepts = UnsafeBufferPointer(rebasing: pieces[0..<kept])
                    if sorted { sort(entries, pieces: kepts) }
                    return body(Canonical(pieces: kepts, order: UnsafeBufferPointer(entries)))
                }
            }
        }
    }

    /// Finds the non-empty pieces, with whether each name and value is canonical already and how long its
    /// canonical form is, in one pass over the input. Returns the number of pieces and the bytes needed
    /// to rewrite the components that are not canonical.
    @inline(__always)
    static func scan(_ bytes: Bytes, into pieces: UnsafeMutableBufferPointer<Piece>) -> (count: Int, rewrite: Int) {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return (0, 0) }
        var pieceCount = 0
        var rewrite = 0
        var start = 0
        while start < count {
            let name = PercentEncoding.formComponentScan(bytes, from: start, to: count, stopAtAmpersand: true, stopAtEquals: true)
            var end = name.end
            var valueStart = end
            var value = (end: end, canonical: true, length: 0)
            if end < count && bytes[end] == UInt8(ascii: "=") {
                valueStart = end &+ 1
                value = PercentEncoding.formComponentScan(bytes, from: valueStart, to: count, stopAtAmpersand: true, stopAtEquals: false)
                end = value.end
            }
            if end > start {
                pieces.initializeElement(
                    at: pieceCount,
                    to: Piece(
                        name: base + start, nameCount: name.end &- start, value: base + valueStart,
                        valueCount: end &- valueStart, nameRewrite: name.canonical ? -1 : name.length,
                        valueRewrite: value.canonical ? -1 : value.length))
                pieceCount &+= 1
                if !name.canonical { rewrite &+= name.length }
                if !value.canonical { rewrite &+= value.length }
            }
            start = end &+ 1
        }
        return (pieceCount, rewrite)
    }

    /// Writes the canonical form of every component that needs one into `scratch` and points its piece there.
    static func rewrite(_ pieces: UnsafeMutableBufferPointer<Piece>, into scratch: UnsafeMutableBufferPointer<UInt8>) {
        guard let start = scratch.baseAddress else { return }
        let base = UnsafePointer(start)
        var out = 0
        for index in pieces.indices {
            let piece = pieces[index]
            if piece.nameRewrite >= 0 {
                let start = out
                out = PercentEncoding.writeFormComponent(piece.nameBytes, canonical: false, into: scratch, at: out)
                pieces[index].name = base + start
                pieces[index].nameCount = out &- start
            }
            if piece.valueRewrite >= 0 {
                let start = out
                out = PercentEncoding.writeFormComponent(piece.valueBytes, canonical: false, into: scratch, at: out)
                pieces[index].value = base + start
                pieces[index].valueCount = out &- start
            }
        }
    }

    /// The sort key of a name: its first 8 bytes, big-endian, zero-padded. Reads no byte past the name.
    @inline(__always)
    static func key(_ name: Bytes) -> UInt64 {
        PairText.pack(Bytes(rebasing: name.prefix(8))).low.byteSwapped
    }

    /// Runs `body` with the canonical forms of `names`, written one after another into scratch memory,
    /// and their ranges there: comparing a handful of names byte by byte needs no hashing and, unlike a
    /// canonicalised `Set`, no allocation.
    static func withCanonicalNames<R>(
        _ names: Set<String>, _ body: (_ bytes: Bytes, _ ranges: UnsafeBufferPointer<Range<Int>>) -> R
    ) -> R {
        var capacity = 0
        for name in names { capacity &+= name.utf8.count &* 3 }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { bytes in
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: names.count) { ranges in
                var end = 0
                var count = 0
                for name in names {
                    let start = end
                    end = URLBytes.withBytes(name) {
                        PercentEncoding.writeFormComponent($0, canonical: false, into: bytes, at: start)
                    }
                    ranges.initializeElement(at: count, to: start..<end)
                    count &+= 1
                }
                return body(UnsafeBufferPointer(rebasing: bytes[0..<end]), UnsafeBufferPointer(rebasing: ranges[0..<count]))
            }
        }
    }

    /// Moves the pieces whose canonical name is not among `names` to the front, keeping their order, and
    /// returns how many there are.
    static func removeIgnored(
        _ names: Bytes, _ ranges: UnsafeBufferPointer<Range<Int>>, from pieces: UnsafeMutableBufferPointer<Piece>,
        count: Int
    ) -> Int {
        var kept = 0
        for index in 0..<count {
            let piece = pieces[index]
            var ignored = false
            for range in ranges where range.count == piece.nameCount {
                if URLBytes.compare(UnsafeBufferPointer(rebasing: names[range]), piece.nameBytes) == 0 {
                    ignored = true
                    break
                }
            }
            if !ignored {
                pieces[kept] = piece
                kept &+= 1
            }
        }
        return kept
    }

    /// Insertion sort for the usual handful of pairs, the standard library's sort beyond that; both order
    /// by name key, then name bytes, then value bytes.
    static func sort(_ entries: UnsafeMutableBufferPointer<Entry>, pieces: UnsafeBufferPointer<Piece>) {
        @inline(__always)
        func precedes(_ a: Entry, _ b: Entry) -> Bool {
            if a.key != b.key { return a.key < b.key }
            let x = pieces[a.piece], y = pieces[b.piece]
            let byName = URLBytes.compare(x.nameBytes, y.nameBytes)
            if byName != 0 { return byName < 0 }
            return URLBytes.compare(x.valueBytes, y.valueBytes) < 0
        }
        guard entries.count > 1 else { return }
        var entries = entries
        guard entries.count <= 16 else {
            entries.sort(by: precedes)
            return
        }
        for index in 1..<entries.count {
            let entry = entries[index]
            var position = index
            while position > 0 && precedes(entry, entries[position &- 1]) {
                entries[position] = entries[position &- 1]
                position &-= 1
            }
            entries[position] = entry
        }
    }
}
