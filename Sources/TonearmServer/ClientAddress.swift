import NIOCore

/// A client's IP address (a connection's peer), as WireMock logs it (`clientIp`) and 3.x's templates read
/// it (`request.clientIp`).
///
/// Kept as the address's bytes rather than its text: every request and journal entry carries one, and a
/// value holding no reference is copied without retaining or releasing anything (a `String?` here cost
/// the request path about 1,000 instructions a request, measured with scripts/server-instructions.sh).
/// The text is made only where it is shown. `package` for the WireMock stages, which match on it
/// (`clientIp`) and log it.
package struct ClientAddress: Sendable, Hashable {
    /// The address's first eight bytes in network order (an IPv4 address's four, then zeros).
    private let high: UInt64
    /// The address's last eight bytes in network order (zeros for IPv4).
    private let low: UInt64
    private let isIPv6: Bool

    /// The IP address of `address`; `nil` for a Unix domain socket.
    package init?(_ address: SocketAddress) {
        switch address {
        case .v4(let v4):
            var high: UInt64 = 0
            withUnsafeBytes(of: v4.address.sin_addr) { bytes in
                for byte in bytes.prefix(4) { high = high << 8 | UInt64(byte) }
            }
            self.high = high << 32
            self.low = 0
            self.isIPv6 = false
        case .v6(let v6):
            var high: UInt64 = 0
            var low: UInt64 = 0
            withUnsafeBytes(of: v6.address.sin6_addr) { bytes in
                for byte in bytes.prefix(8) { high = high << 8 | UInt64(byte) }
                for byte in bytes.dropFirst(8).prefix(8) { low = low << 8 | UInt64(byte) }
            }
            self.high = high
            self.low = low
            self.isIPv6 = true
        case .unixDomainSocket:
            return nil
        }
    }

    /// The address as the socket layer writes it (`127.0.0.1`, `::1`), as NIO's `ipAddress` does.
    package var text: String? {
        var packed = ByteBuffer()
        if isIPv6 {
            packed.writeInteger(high)
            packed.writeInteger(low)
        } else {
            packed.writeInteger(UInt32(truncatingIfNeeded: high >> 32))
        }
        return (try? SocketAddress(packedIPAddress: packed, port: 0))?.ipAddress
    }
}
