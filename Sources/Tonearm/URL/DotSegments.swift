/// RFC 3986 §5.2.4 `remove_dot_segments`, on bytes, in place.
///
/// Only absolute paths reach this code (the path normaliser makes every path start with "/"), so rules
/// 2A and 2D of the RFC, which only apply to relative input, can never fire and are left out.
enum DotSegments {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// Whether `path` has a "." or ".." segment, so the common path without one skips the rewrite.
    /// A segment starts at index 0 or after a "/"; ".a", "a." and "..." are ordinary segment names.
    @inline(__always)
    static func containsDotSegment(_ path: Bytes) -> Bool {
        let count = path.count
        var index = 0
        while index < count {
            if path[index] == UInt8(ascii: "."), index == 0 || path[index &- 1] == UInt8(ascii: "/") {
                if isDotSegment(path, from: index) { return true }
            }
            index &+= 1
        }
        return false
    }

    /// Whether the segment starting at `index` is "." or "..". It ends at "/", or where the path ends: at
    /// `end`, or at a "?" or "#" when a caller scans a whole URL.
    @inline(__always)
    static func isDotSegment(_ path: Bytes, from index: Int, to end: Int? = nil) -> Bool {
        let end = end ?? path.count
        @inline(__always)
        func endsSegment(_ position: Int) -> Bool {
            if position >= end { return true }
            let byte = path[position]
            return byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
        }
        let next = index &+ 1
        if endsSegment(next) { return true }
        return path[next] == UInt8(ascii: ".") && endsSegment(next &+ 1)
    }

    /// Removes dot segments from the absolute path in `buffer[0..<count]` and returns the new length.
    ///
    /// Works in place because the output never grows past the input consumed so far: every step either
    /// copies a segment forward, drops input, or shortens the output.
    static func remove(in buffer: UnsafeMutableBufferPointer<UInt8>, count: Int) -> Int {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var read = 0
        var write = 0
        while read < count {
            // Here the remaining input always starts with "/".
            let rest = count &- read
            if rest >= 2 && buffer[read &+ 1] == dot {
                if rest == 2 {  // "/." at the end: becomes "/"
                    buffer[write] = slash
                    return write &+ 1
                }
                if buffer[read &+ 2] == slash {  // "/./" becomes "/"
                    read &+= 2
                    continue
                }
                if buffer[read &+ 2] == dot && (rest == 3 || buffer[read &+ 3] == slash) {
                    // "/../" or a final "/..": drop the last output segment with its leading "/".
                    write = lastSlash(in: buffer, before: write)
                    if rest == 3 {
                        buffer[write] = slash
                        return write &+ 1
                    }
                    read &+= 3
                    continue
                }
            }
            // Move "/segment" to the output.
            buffer[write] = slash
            write &+= 1
            read &+= 1
            while read < count && buffer[read] != slash {
                buffer[write] = buffer[read]
                write &+= 1
                read &+= 1
            }
        }
        return write
    }

    @inline(__always)
    static func lastSlash(in buffer: UnsafeMutableBufferPointer<UInt8>, before end: Int) -> Int {
        var index = end
        while index > 0 {
            index &-= 1
            if buffer[index] == UInt8(ascii: "/") { return index }
        }
        return 0
    }
}
