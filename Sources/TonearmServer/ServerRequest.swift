import Tonearm

/// A request as it arrived on a connection, body complete.
package struct ServerRequest: Sendable {
    package var method: String
    /// The request-line target: origin form (`/host/path?q`) or absolute form (`http://host/path`).
    package var target: String
    package var headers: [HeaderField]
    package var body: [UInt8]
    /// Whether it carries an `Upgrade` field (a WebSocket handshake may be one): only then is it read
    /// as a handshake, so ordinary requests do not pay for looking.
    package var asksUpgrade: Bool
    /// The client's IP address (the connection's peer), as WireMock logs it (`clientIp`) and 3.x's
    /// templates read it (`request.clientIp`); `nil` when the socket did not say.
    package var peer: ClientAddress?
    /// ``peer`` as text.
    package var clientAddress: String? { peer?.text }

    /// A request; `asksUpgrade` is found in `headers` unless the caller, which read them already, says.
    package init(method: String, target: String, headers: [HeaderField], body: [UInt8], asksUpgrade: Bool? = nil, peer: ClientAddress? = nil) {
        self.method = method
        self.peer = peer
        self.target = target
        self.headers = headers
        self.body = body
        self.asksUpgrade = asksUpgrade ?? headers.contains { Self.isUpgradeField($0.name) }
    }

    /// Whether a field named `name` is `Upgrade`: its length first, which nearly every name fails.
    package static func isUpgradeField(_ name: String) -> Bool {
        name.utf8.count == 7 && name.equalsIgnoringASCIICase("upgrade")
    }
}
