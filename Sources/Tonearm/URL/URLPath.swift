/// Path normalisation: percent-encoding (RFC 3986 §6.2.2.2), then dot segments (§6.2.2.3), and a
/// leading "/" so that the result is always an absolute path.
///
/// The leading "/" is what makes an empty path "/" (§6.2.3), but it also covers paths that do not start
/// with "/" at all (origin-form input such as "a/b", or "mailto:x"): an HTTP request path is absolute,
/// and without it "./a:b" would normalise to "a:b", which reads back as a scheme.
enum URLPath {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// How many bytes ``write(_:isNormal:into:at:)`` may need: the path as it is when already normal, otherwise
    /// room for a leading "/" and three bytes for each input byte.
    @inline(__always)
    static func capacity(for path: Bytes, isNormal: Bool) -> Int {
        isNormal ? path.count : path.count &* 3 &+ 1
    }

    /// Writes the normalised path at `start` and returns its end. `isNormal` comes from
    /// ``scan(_:from:to:)``, which found it while looking for the path's end.
    static func write(
        _ path: Bytes, isNormal: Bool, into output: UnsafeMutableBufferPointer<UInt8>, at start: Int
    ) -> Int {
        if isNormal { return URLBytes.copy(path, into: output, at: start) }
        var end = start
        if path.first != UInt8(ascii: "/") {
            output[end] = UInt8(ascii: "/")
            end &+= 1
        }
        end = PercentEncoding.normalizePathBytes(path, into: output, at: end, lowercase: false, encodeDisallowed: true)
        let written = UnsafeMutableBufferPointer(rebasing: output[start..<end])
        if DotSegments.containsDotSegment(UnsafeBufferPointer(written)) {
            end = start &+ DotSegments.remove(in: written, count: written.count)
        }
        return end
    }

    /// Finds where the path starting at `start` ends (at the first "?" or "#", or at `end`) and whether it is
    /// already normal: absolute, every byte allowed literally or part of a canonical escape, and no dot
    /// segment. One pass does both because this runs on every URL; a `false` only costs the slow path.
    @inline(__always)
    static func scan(_ bytes: Bytes, from start: Int, to end: Int) -> (end: Int, isNormal: Bool) {
        let flags = URLByteClass.table.utf8Start
        var index = start
        var normal = start < end && bytes[start] == UInt8(ascii: "/")
        while index < end {
            // Skip a run of plain bytes, the most of any path, with a pointer walk: one table load,
            // increment and compare per byte. Safe: the pointer stays within base + index ..< base + end.
            if let base = bytes.baseAddress {
                var next = base + index
                let stop = base + end
                while next < stop && flags[Int(next.pointee)] & URLByteClass.pathPlain != 0 { next += 1 }
                index = next - base
                if index >= end { break }
            }
            let byte = bytes[index]
            let byteFlags = flags[Int(byte)]
            if byteFlags & URLByteClass.pathEnd != 0 { break }
            if byte == UInt8(ascii: ".") {
                if normal && bytes[index &- 1] == UInt8(ascii: "/") && DotSegments.isDotSegment(bytes, from: index, to: end) {
                    normal = false
                }
            } else if byte == UInt8(ascii: "%") && normal && PercentEncoding.isCanonicalPathEscape(bytes, at: index, end: end) {
                index &+= 3
                continue
            } else {
                normal = false
            }
            index &+= 1
        }
        return (index, normal)
    }
}
