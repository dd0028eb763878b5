/// Each canonical line reduced to two hashes, read in place from the canonical bytes: the cheap first
/// pass of near-miss ranking, which must not copy bodies or parse JSON for every candidate.
struct LineSignature {
    /// `(hash of label, hash of value)` per line, in canonical order.
    private var lines: [(label: UInt64, value: UInt64, weight: Int)] = []

    init(_ canonical: CanonicalRequest) {
        canonical.bytes.withUnsafeBytes { bytes in
            CanonicalFieldReader.forEachLine(in: bytes) { labelRange, valueRange in
                let label = UnsafeRawBufferPointer(rebasing: bytes[labelRange])
                let value = UnsafeRawBufferPointer(rebasing: bytes[valueRange])
                lines.append((
                    XXH3.hash64(label),
                    XXH3.hash64(value),
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
        if CanonicalLabel.method.isLabel(label) || CanonicalLabel.url.isLabel(label) || CanonicalLabel.path.isLabel(label) {
            return 4
        }
        return CanonicalLabel.bodyPrefix.isPrefix(of: label) ? 2 : 1
    }
}
