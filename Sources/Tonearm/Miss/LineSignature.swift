import CXXHash

/// Each canonical line reduced to two hashes, read in place from the canonical bytes: the cheap first
/// pass of near-miss ranking, which must not copy bodies or parse JSON for every candidate.
struct LineSignature {
    /// `(hash of label, hash of value)` per line, in canonical order.
    private var lines: [(label: UInt64, value: UInt64, weight: Int)] = []

    init(_ canonical: CanonicalRequest) {
        canonical.bytes.withUnsafeBytes { bytes in
            var position = 0
            while let line = Self.nextLine(in: bytes, from: &position) {
                let label = UnsafeRawBufferPointer(rebasing: bytes[line.label])
                let value = UnsafeRawBufferPointer(rebasing: bytes[line.value])
                lines.append((
                    tonearm_xxh3_64(label.baseAddress, label.count),
                    tonearm_xxh3_64(value.baseAddress, value.count),
                    Self.weight(ofLabel: label)))
            }
        }
    }

    /// The summed weight of lines present on one side only or with different values; method, URL and
    /// path weigh most, then the body, then each query or header line.
    func distance(to other: LineSignature) -> Int {
        var total = 0
        for line in lines where !other.lines.contains(where: { $0.label == line.label && $0.value == line.value }) {
            total += line.weight
        }
        for line in other.lines where !lines.contains(where: { $0.label == line.label && $0.value == line.value }) {
            total += line.weight
        }
        return total
    }

    private static func weight(ofLabel label: UnsafeRawBufferPointer) -> Int {
        if label.starts(with: "method".utf8) || label.starts(with: "url".utf8) || label.starts(with: "path".utf8) {
            return 4
        }
        return label.starts(with: "body:".utf8) ? 2 : 1
    }

    /// The label and value ranges of the `label SP length SP value LF` line at `position`.
    private static func nextLine(
        in bytes: UnsafeRawBufferPointer, from position: inout Int
    ) -> (label: Range<Int>, value: Range<Int>)? {
        guard position < bytes.count, let labelEnd = bytes[position...].firstIndex(of: 0x20) else { return nil }
        var length = 0
        var cursor = labelEnd + 1
        while cursor < bytes.count, bytes[cursor] != 0x20 {
            length = length * 10 + Int(bytes[cursor] &- 0x30)
            cursor += 1
        }
        let valueStart = cursor + 1
        guard valueStart + length < bytes.count else { return nil }
        defer { position = valueStart + length + 1 }
        return (position..<labelEnd, valueStart..<(valueStart + length))
    }
}
