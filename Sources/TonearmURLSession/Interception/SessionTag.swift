#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A type that stands for one session number, so each stubbed session gets its own `URLProtocol`
/// subclass (``SessionURLProtocol``) and the protocol knows its session from `Self` alone.
///
/// Why types rather than a header: swift-corelibs-foundation adds `httpAdditionalHeaders` only inside
/// its own HTTP protocol, so a custom protocol never sees them; and `URLSessionTask` exposes no
/// session. A protocol class per session works the same on every platform and needs no reflection.
/// A number is spelled in binary as nested generic types (`One<Zero<One<End>>>` is 5), so building the
/// class for session `n` costs O(log n) metadata lookups, done once when the session is created.
protocol SessionTag {
    static var sessionNumber: UInt64 { get }
}

/// The empty binary number; the innermost type of every tag.
enum EndTag: SessionTag {
    static var sessionNumber: UInt64 { 0 }
}

/// Appends a 0 bit to `Next`'s number.
enum ZeroTag<Next: SessionTag>: SessionTag {
    static var sessionNumber: UInt64 { Next.sessionNumber << 1 }
}

/// Appends a 1 bit to `Next`'s number.
enum OneTag<Next: SessionTag>: SessionTag {
    static var sessionNumber: UInt64 { Next.sessionNumber << 1 | 1 }
}

enum SessionTags {
    /// The `URLProtocol` subclass that answers for session `number`.
    static func protocolClass(for number: UInt64) -> URLProtocol.Type {
        var tag: any SessionTag.Type = EndTag.self
        let width = UInt64.bitWidth - number.leadingZeroBitCount
        for bit in stride(from: width - 1, through: 0, by: -1) {
            tag = appending(bit: number >> UInt64(bit) & 1 == 1, to: tag)
        }
        return protocolClass(tag)
    }

    private static func appending<Tag: SessionTag>(bit: Bool, to _: Tag.Type) -> any SessionTag.Type {
        bit ? OneTag<Tag>.self : ZeroTag<Tag>.self
    }

    private static func protocolClass<Tag: SessionTag>(_: Tag.Type) -> URLProtocol.Type {
        SessionURLProtocol<Tag>.self
    }
}
