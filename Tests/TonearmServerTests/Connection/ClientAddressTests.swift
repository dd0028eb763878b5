import NIOCore
import Testing
@testable import TonearmServer

/// The client address every request carries is kept as bytes; what WireMock's `clientIp` shows is its text.
@Suite("The client's address (WireMock's clientIp)")
struct ClientAddressTests {
    @Test(
        "an IPv4 or IPv6 peer reads back as the socket layer writes it",
        arguments: ["127.0.0.1", "10.1.2.255", "0.0.0.0", "::1", "2001:db8::8a2e:370:7334", "fe80::1:2:3:4", "::ffff:192.0.2.1"])
    func textRoundTrips(_ address: String) throws {
        let socketAddress = try SocketAddress(ipAddress: address, port: 8080)
        let client = try #require(ClientAddress(socketAddress))
        #expect(client.text == socketAddress.ipAddress)
        #expect(client.text == address)
    }

    @Test("a Unix domain socket has no client address, and different addresses are different values")
    func unixSocketAndIdentity() throws {
        #expect(ClientAddress(try SocketAddress(unixDomainSocketPath: "/tmp/tonearm.sock")) == nil)
        let one = try #require(ClientAddress(try SocketAddress(ipAddress: "127.0.0.1", port: 1)))
        let sameOtherPort = try #require(ClientAddress(try SocketAddress(ipAddress: "127.0.0.1", port: 2)))
        let other = try #require(ClientAddress(try SocketAddress(ipAddress: "127.0.0.2", port: 1)))
        let mapped = try #require(ClientAddress(try SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 1)))
        #expect(one == sameOtherPort)
        #expect(one != other)
        #expect(one != mapped)
    }
}
