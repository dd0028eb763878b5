/// One canonicalisation run: a single forward pass over the input bytes that validates strict JSON
/// and writes the canonical form as it goes.
///
/// Design, driven by the hashing hot path:
/// - Nesting is tracked on an explicit stack rather than by recursion, so hostile nesting hits the
///   512 limit as an error and can never exhaust the thread's stack.
/// - Members are written in input order; when an object closes, its members are put in order by an
///   insertion sort of their spans and moved (via the spare capacity at the end of the output) only
///   if they were not already in canonical order. Keys are compared in their written canonical form,
///   first by an 8-byte prefix held in the span, so no `String` is made per key.
/// - The output always has room for at least the rest of the input plus `slack` bytes. Only numbers
///   (and nulls standing in for ignored elements) can be longer than the text they came from, so
///   only they re-establish that room; everything else writes without capacity checks.
/// - Ignored members are written like any other (that is what validates them) and then cut off.
struct CanonicalWriter: ~Copyable {
    /// RFC 8259 leaves the limit to implementations; 512 is far beyond real request bodies and keeps
    /// the work per level bounded.
    static let maximumDepth = 512

    /// Spare output capacity kept beyond the remaining input length; covers the block copies of
    /// strings, which may write up to 16 bytes past what they copy.
    static let slack = 64

    /// Where a member's bytes sit in `out`, and where its name started in the input (for errors).
    struct MemberSpan {
        var keyStart: Int
        var keyEnd: Int
        var end: Int
        var sourceOffset: Int
        /// The first (up to) eight bytes of the name, big-endian and zero-padded, so that integer
        /// comparison is byte-wise comparison; valid for ordering only when `plain`.
        var prefix: UInt64
        /// Whether those bytes are ASCII without a backslash, whose byte order is UTF-16 order.
        var plain: Bool
    }

    /// An open object or array.
    struct Frame {
        var isObject: Bool
        /// Output offset of the opening bracket.
        var start: Int
        /// First span of this object in `spans`.
        var spanBase: Int
        /// Index of the current element (arrays).
        var index: Int
        /// Output offset where the current member (before its comma) or element (after its comma) began.
        var childStart: Int
        /// The ignore-tree nodes matching this container: `active[activeStart..<activeEnd]`.
        var activeStart: Int
        var activeEnd: Int
        /// Whether the current member or element is to be dropped or nulled.
        var childIgnored: Bool
    }

    let input: UnsafeRawBufferPointer
    let bytes: UnsafePointer<UInt8>
    let end: Int
    var pos = 0
    var out: ByteBuffer
    var spans = RawStack<MemberSpan>(initialCapacity: 32)
    var stack = RawStack<Frame>(initialCapacity: 8)
    /// The innermost open container (meaningful while `depth > 0`); its parents are in `stack`.
    var top = Frame(
        isObject: false, start: 0, spanBase: 0, index: 0, childStart: 0, activeStart: 0, activeEnd: 0,
        childIgnored: false)
    var depth = 0
    let trie: IgnoreTrie?
    var active: [Int32] = []
    /// The ignore-tree nodes matching the value about to be parsed.
    var valueActive = 0..<0

    init(input: UnsafeRawBufferPointer, bytes: UnsafePointer<UInt8>, trie: IgnoreTrie?) {
        self.input = input
        self.bytes = bytes
        self.end = input.count
        self.trie = trie
        // Twice the input: reordering an object's members uses the spare half as its temporary copy.
        out = ByteBuffer(capacity: 2 * input.count + Self.slack)
    }

    // MARK: - Errors

    @inline(never)
    func error(at offset: Int, _ expected: String) -> JSONSyntaxError {
        JSONSyntaxError(at: offset, in: input, expected: expected)
    }

    // MARK: - Structure

    mutating func run() throws(JSONSyntaxError) {
        if trie != nil {
            active.append(0)
            valueActive = 0..<1
        }
        value: while true {
            assert(out.capacity - out.count >= end - pos + Self.slack, "room guarantee broken")
            skipWhitespace()
            guard pos < end else { throw error(at: pos, "a value") }
            var completed = true
            switch bytes[pos] {
            case UInt8(ascii: "{"): completed = try openObject()
            case UInt8(ascii: "["): completed = try openArray()
            case UInt8(ascii: "\""): try copyString()
            case UInt8(ascii: "t"): try copyLiteral("true")
            case UInt8(ascii: "f"): try copyLiteral("false")
            case UInt8(ascii: "n"): try copyLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try copyNumber()
            default: throw error(at: pos, "a value")
            }
            if !completed { continue value }
            // A value is complete: close every container that ends here, then start the next sibling.
            while true {
                guard depth > 0 else {
                    skipWhitespace()
                    guard pos == end else { throw error(at: pos, "end of input") }
                    if let trie, trie.ignoresRoot {
                        out.truncate(to: 0)
                        out.append("null")
                    }
                    return
                }
                finishChild()
                skipWhitespace()
                guard pos < end else { throw error(at: pos, top.isObject ? "',' or '}'" : "',' or ']'") }
                let byte = bytes[pos]
                if byte == UInt8(ascii: ",") {
                    pos += 1
                    if top.isObject {
                        try beginMember(first: false)
                    } else {
                        beginElement()
                    }
                    continue value
                }
                if top.isObject {
                    guard byte == UInt8(ascii: "}") else { throw error(at: pos, "',' or '}'") }
                    pos += 1
                    try closeObject()
                } else {
                    guard byte == UInt8(ascii: "]") else { throw error(at: pos, "',' or ']'") }
                    pos += 1
                    out.appendUnchecked(UInt8(ascii: "]"))
                }
                popFrame()
            }
        }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        pos = Self.skipWhitespace(bytes, from: pos, end: end)
    }

    /// Works on locals so the loop does not reload `self` after every step.
    @inline(__always)
    static func skipWhitespace(_ bytes: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        var index = start
        while index < end {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
            index &+= 1
        }
        return index
    }

    /// Restores the room guarantee after writing something longer than its input.
    @inline(__always)
    mutating func restoreSlack() {
        out.reserve(end - pos + Self.slack)
    }

    private mutating func pushFrame(isObject: Bool) throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else {
            throw error(at: pos, "nesting depth at most \(Self.maximumDepth)")
        }
        if depth > 0 { stack.append(top) }
        // An empty set is pinned to the top of `active` so that finishing a child never cuts into
        // the sets of the containers around it.
        let activeStart = valueActive.isEmpty ? active.count : valueActive.lowerBound
        let activeEnd = valueActive.isEmpty ? active.count : valueActive.upperBound
        top = Frame(
            isObject: isObject, start: out.count, spanBase: spans.count, index: 0, childStart: out.count,
            activeStart: activeStart, activeEnd: activeEnd, childIgnored: false)
        depth += 1
    }

    private mutating func popFrame() {
        depth -= 1
        if depth > 0, let parent = stack.popLast() { top = parent }
    }

    /// Returns whether the object is already complete (`{}`).
    private mutating func openObject() throws(JSONSyntaxError) -> Bool {
        try pushFrame(isObject: true)
        pos += 1
        out.appendUnchecked(UInt8(ascii: "{"))
        skipWhitespace()
        if pos < end && bytes[pos] == UInt8(ascii: "}") {
            pos += 1
            out.appendUnchecked(UInt8(ascii: "}"))
            popFrame()
            return true
        }
        try beginMember(first: true)
        return false
    }

    /// Returns whether the array is already complete (`[]`).
    private mutating func openArray() throws(JSONSyntaxError) -> Bool {
        try pushFrame(isObject: false)
        pos += 1
        out.appendUnchecked(UInt8(ascii: "["))
        skipWhitespace()
        if pos < end && bytes[pos] == UInt8(ascii: "]") {
            pos += 1
            out.appendUnchecked(UInt8(ascii: "]"))
            popFrame()
            return true
        }
        beginElement()
        return false
    }

    /// Parses `"name" :` and prepares for the member's value.
    private mutating func beginMember(first: Bool) throws(JSONSyntaxError) {
        pos = Self.skipWhitespace(bytes, from: pos, end: end)
        guard pos < end && bytes[pos] == UInt8(ascii: "\"") else {
            throw error(at: pos, first ? "a member name or '}'" : "a member name")
        }
        top.childStart = out.count
        if spans.count > top.spanBase { out.appendUnchecked(UInt8(ascii: ",")) }
        let keyStart = out.count
        let sourceOffset = pos
        // The name's sort prefix is read from the input, not from the output just written: a load
        // that straddles recent smaller stores cannot be forwarded and stalls the pipeline.
        var prefix: UInt64 = 0
        var plain = false
        let nameStart = pos &+ 1
        let stop = Self.plainRunEnd(bytes, from: nameStart, end: end)
        if stop < end && bytes[stop] == UInt8(ascii: "\"") {
            copyPlainString(to: stop)
            prefix = Self.namePrefix(bytes + nameStart, count: stop &- nameStart, available: end &- nameStart)
            plain = true
        } else {
            try copyStringWithSpecials(plainUpTo: stop)
        }
        let keyEnd = out.count
        pos = Self.skipWhitespace(bytes, from: pos, end: end)
        guard pos < end && bytes[pos] == UInt8(ascii: ":") else { throw error(at: pos, "':'") }
        pos += 1
        out.appendUnchecked(UInt8(ascii: ":"))
        spans.append(MemberSpan(
            keyStart: keyStart, keyEnd: keyEnd, end: keyEnd, sourceOffset: sourceOffset, prefix: prefix,
            plain: plain))
        if top.activeStart < top.activeEnd, let trie {
            let name = UnsafeBufferPointer(start: out.base + keyStart + 1, count: keyEnd - keyStart - 2)
            let ignored = trie.descend(
                from: top.activeStart..<top.activeEnd, intoMember: name, active: &active)
            enterChild(ignored: ignored)
        } else {
            valueActive = 0..<0
        }
    }

    /// The first (up to) eight bytes of a plain name as a big-endian, zero-padded integer, so that
    /// integer order is byte order (and, for ASCII, UTF-16 order). Padding with zero is sound
    /// because a plain name never contains a zero byte: U+0000 is always escaped.
    @inline(__always)
    private static func namePrefix(_ name: UnsafePointer<UInt8>, count: Int, available: Int) -> UInt64 {
        if available >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(name).loadUnaligned(as: UInt64.self))
            let mask: UInt64 = count >= 8 ? .max : (1 &<< UInt64(count &* 8)) &- 1
            return (word & mask).byteSwapped
        }
        var prefix: UInt64 = 0
        for index in 0..<8 {
            prefix = prefix &<< 8 | (index < count ? UInt64(name[index]) : 0)
        }
        return prefix
    }

    /// Prepares for the next array element (after its comma, if any).
    private mutating func beginElement() {
        if top.index > 0 { out.appendUnchecked(UInt8(ascii: ",")) }
        top.childStart = out.count
        if top.activeStart < top.activeEnd, let trie {
            let ignored = trie.descend(
                from: top.activeStart..<top.activeEnd, intoElement: top.index, active: &active)
            enterChild(ignored: ignored)
        } else {
            valueActive = 0..<0
        }
    }

    private mutating func enterChild(ignored: Bool) {
        top.childIgnored = ignored
        if ignored {
            // Nothing inside an ignored value can matter, so stop matching below it.
            active.removeLast(active.count - top.activeEnd)
            valueActive = 0..<0
        } else {
            valueActive = top.activeEnd..<active.count
        }
    }

    /// Records the end of the member or element just parsed, applying the ignore rule to it.
    @inline(__always)
    private mutating func finishChild() {
        if top.isObject {
            if top.childIgnored {
                // Dropped entirely, comma included. A name that is ignored is also not checked for
                // duplicates, which is harmless: whatever it holds is not compared.
                out.truncate(to: top.childStart)
                spans.removeLast(1)
            } else {
                spans[spans.count - 1].end = out.count
            }
        } else {
            if top.childIgnored {
                // Removing an element would renumber the ones after it, so it becomes null instead.
                out.truncate(to: top.childStart)
                out.append("null")
                restoreSlack()
            }
            top.index += 1
        }
        if active.count > top.activeEnd {
            active.removeLast(active.count - top.activeEnd)
        }
        top.childIgnored = false
    }

    /// Writes `}` after putting the members in RFC 8785 order and rejecting duplicate names.
    ///
    /// A comparison sort must compare every pair of elements that end up adjacent, so noting any
    /// comparison that found two names equal is enough to detect duplicates without another pass.
    private mutating func closeObject() throws(JSONSyntaxError) {
        let first = top.spanBase
        let count = spans.count - first
        if count > 1 {
            let members = spans.base + first
            let base = UnsafePointer(out.base)
            var sawEqual = false
            var moved = false
            if count <= 32 {
                // Insertion sort: n − 1 comparisons and no moves for input that is already in order.
                for index in 1..<count {
                    let member = members[index]
                    var slot = index
                    while slot > 0 {
                        let order = Self.compareKeys(members[slot - 1], member, base)
                        if order == 0 { sawEqual = true }
                        if order <= 0 { break }
                        members[slot] = members[slot - 1]
                        slot -= 1
                    }
                    if slot != index {
                        members[slot] = member
                        moved = true
                    }
                }
            } else {
                var inOrder = true
                for index in 1..<count {
                    let order = Self.compareKeys(members[index - 1], members[index], base)
                    if order == 0 { sawEqual = true }
                    if order > 0 {
                        inOrder = false
                        break
                    }
                }
                if !inOrder {
                    var buffer = UnsafeMutableBufferPointer(start: members, count: count)
                    buffer.sort { lhs, rhs in
                        let order = Self.compareKeys(lhs, rhs, base)
                        if order == 0 { sawEqual = true }
                        return order < 0
                    }
                    moved = true
                }
            }
            if sawEqual {
                for index in 1..<count where Self.compareKeys(members[index - 1], members[index], base) == 0 {
                    throw duplicateError(members[index - 1], members[index])
                }
            }
            if moved {
                reorderMembers(first: first, last: first + count)
            }
        }
        out.appendUnchecked(UInt8(ascii: "}"))
        spans.removeLast(count)
    }

    /// Rewrites the members of the innermost object in the (already sorted) order of their spans,
    /// using the output's spare capacity as the temporary copy.
    ///
    /// Members are moved in 8-byte words where the source has the bytes to spare; the few bytes a
    /// word writes past a member's end are overwritten by the next member, or land in the gap left
    /// before the temporary copy.
    private mutating func reorderMembers(first: Int, last: Int) {
        let regionStart = top.start + 1
        let length = out.count - regionStart
        let gap = 8
        out.reserve(gap + length)
        let spanBase = spans.base
        let base = out.base
        let temporary = base + out.count + gap
        temporary.update(from: base + regionStart, count: length)
        var write = base + regionStart
        for index in first..<last {
            if index > first {
                write[0] = UInt8(ascii: ",")
                write += 1
            }
            let span = spanBase[index]
            let offset = span.keyStart - regionStart
            let memberLength = span.end - span.keyStart
            if offset + (memberLength + 7) & ~7 <= length {
                Self.copyWords(from: temporary + offset, to: write, count: memberLength)
            } else {
                write.update(from: temporary + offset, count: memberLength)
            }
            write += memberLength
        }
    }

    /// Copies `count` bytes rounded up to whole 8-byte words; the caller guarantees both sides have
    /// the rounded-up length available.
    @inline(__always)
    static func copyWords(from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count: Int) {
        var offset = 0
        while offset < count {
            let word = UnsafeRawPointer(source + offset).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(destination + offset).storeBytes(of: word, as: UInt64.self)
            offset &+= 8
        }
    }

    @inline(__always)
    private static func compareKeys(_ lhs: MemberSpan, _ rhs: MemberSpan, _ base: UnsafePointer<UInt8>) -> Int {
        if lhs.plain && rhs.plain && lhs.prefix != rhs.prefix {
            return lhs.prefix < rhs.prefix ? -1 : 1
        }
        return CanonicalKeyOrder.compare(
            base + lhs.keyStart + 1, lhs.keyEnd - lhs.keyStart - 2,
            base + rhs.keyStart + 1, rhs.keyEnd - rhs.keyStart - 2)
    }

    @inline(never)
    private func duplicateError(_ lhs: MemberSpan, _ rhs: MemberSpan) -> JSONSyntaxError {
        let name = String(
            decoding: UnsafeBufferPointer(start: out.base + lhs.keyStart, count: lhs.keyEnd - lhs.keyStart),
            as: UTF8.self)
        return error(at: max(lhs.sourceOffset, rhs.sourceOffset), "no duplicate member \(name)")
    }

    // MARK: - Literals

    private mutating func copyLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        let matches = end - pos >= length && word.withUTF8Buffer { literal in
            for index in 0..<length where bytes[pos + index] != literal[index] {
                return false
            }
            return true
        }
        guard matches else { throw error(at: pos, "'\(word)'") }
        out.append(bytes + pos, count: length)
        pos += length
    }
}
