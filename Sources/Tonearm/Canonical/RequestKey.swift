/// The hash of a ``CanonicalRequest``: XXH3-64 of its bytes, plus an independent check hash.
///
/// The table lookup uses `value`; a hit is confirmed with `check` (XXH3-64 under a different seed) before
/// a track is returned, so a 64-bit collision between two different canonical forms would also have to
/// collide under a second, independently seeded hash (about 2⁻¹²⁸) to replay the wrong response.
public struct RequestKey: Sendable, Hashable, CustomStringConvertible {
    /// XXH3-64 (seed 0) of the canonical bytes: the key `docs/key-spec.md` specifies.
    public let value: UInt64
    /// XXH3-64 with seed ``RequestKey/checkSeed`` of the same bytes.
    public let check: UInt64

    /// The seed of the check hash: the ASCII bytes of "tonearm1" read as a big-endian integer.
    public static let checkSeed: UInt64 = 0x746F_6E65_6172_6D31

    /// Hashes canonical bytes.
    public init(canonicalBytes bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { RequestKey(canonicalBytes: $0) }
    }

    /// Hashes canonical bytes wherever they are.
    init(canonicalBytes buffer: UnsafeRawBufferPointer) {
        value = XXH3.hash64(buffer)
        check = XXH3.hash64(buffer, seed: RequestKey.checkSeed)
    }

    /// Creates a key from known hash values.
    public init(value: UInt64, check: UInt64) {
        self.value = value
        self.check = check
    }

    /// The key as 16 lowercase hexadecimal digits.
    public var hex: String { Self.hex(value) }

    /// The key as 16 lowercase hexadecimal digits.
    public var description: String { hex }

    /// `value` as 16 lowercase hexadecimal digits: how keys, and hashes shown beside them, are written.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
