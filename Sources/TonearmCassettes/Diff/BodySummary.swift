import Tonearm

/// A body told by its size and a hash, for bodies a person cannot read and for saying that two
/// bodies differ at all.
public struct BodySummary: Sendable, Hashable, CustomStringConvertible {
    /// The size in bytes.
    public var byteCount: Int
    /// XXH3-64 of the bytes: the hash request keys are made of, not a cryptographic one, which a
    /// summary for people does not need.
    public var hash: UInt64

    /// Creates a summary.
    public init(byteCount: Int, hash: UInt64) {
        self.byteCount = byteCount
        self.hash = hash
    }

    /// The summary of `bytes`.
    public init(of bytes: [UInt8]) {
        byteCount = bytes.count
        hash = bytes.withUnsafeBytes { XXH3.hash64($0) }
    }

    /// The hash as 16 lowercase hexadecimal digits.
    public var hashHex: String { RequestKey.hex(hash) }

    /// `1,234 bytes, xxh3 0123456789abcdef`.
    public var description: String { "\(byteCount) bytes, xxh3 \(hashHex)" }
}
