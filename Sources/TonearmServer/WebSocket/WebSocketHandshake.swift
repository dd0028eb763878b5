import Crypto
import Foundation
import Tonearm

/// A client's WebSocket opening handshake (RFC 6455 §4.2.1): a `GET` asking to upgrade to `websocket`,
/// with its key. The server answers it itself when replaying (``acceptValue``) and passes it on when
/// recording (without extension offers: Tonearm negotiates none, so frames stay readable and
/// permessage-deflate never needs undoing).
struct WebSocketHandshake: Sendable, Equatable {
    /// `Sec-WebSocket-Key`: 16 random bytes in base64, proof the server read this handshake.
    let key: String

    /// What a request is to the WebSocket code.
    enum Detection: Sendable, Equatable {
        /// No `Upgrade: websocket`: an ordinary request.
        case notWebSocket
        /// A well-formed opening handshake.
        case handshake(WebSocketHandshake)
        /// An upgrade to `websocket` that is not a valid handshake: answered 400 with why.
        case malformed(String)
    }

    /// Whether `request` asks for a WebSocket, and whether it does so properly.
    static func detect(_ request: Request) -> Detection {
        guard request.headers.contains(where: { $0.name.equalsIgnoringASCIICase("Upgrade") && Self.hasToken("websocket", in: $0.value) })
        else { return .notWebSocket }
        guard request.method == "GET" else { return .malformed("a WebSocket handshake is a GET, not \(request.method)") }
        guard request.headers.contains(where: { $0.name.equalsIgnoringASCIICase("Connection") && Self.hasToken("upgrade", in: $0.value) }) else {
            return .malformed("a WebSocket handshake says Connection: Upgrade")
        }
        guard request.headers.first(named: "Sec-WebSocket-Version") == "13" else {
            return .malformed("only WebSocket version 13 is served (Sec-WebSocket-Version: 13)")
        }
        guard let key = request.headers.first(named: "Sec-WebSocket-Key")?.trimmingCharacters(in: .whitespaces),
            let bytes = Data(base64Encoded: key), bytes.count == 16
        else { return .malformed("Sec-WebSocket-Key must be 16 bytes in base64") }
        return .handshake(WebSocketHandshake(key: key))
    }

    /// `Sec-WebSocket-Accept` for this key: base64 of SHA-1 of the key and RFC 6455's GUID.
    var acceptValue: String {
        let digest = Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
        return Data(digest).base64EncodedString()
    }

    /// The `101` answering this handshake: the recorded answer's fields (its subprotocol, cookies)
    /// without its accept value, which was for another key, nor any extension; `Upgrade`, `Connection`
    /// and this key's accept value.
    func switchingHead(recorded fields: [HeaderField]) -> OutgoingResponse.Head {
        let dropped = ["upgrade", "connection", "sec-websocket-accept", "sec-websocket-extensions", "content-length", "transfer-encoding"]
        var head = fields.filter { field in !dropped.contains { field.name.equalsIgnoringASCIICase($0) } }
        head = [HeaderField("Upgrade", "websocket"), HeaderField("Connection", "Upgrade"), HeaderField("Sec-WebSocket-Accept", acceptValue)] + head
        return OutgoingResponse.Head(status: 101, fields: head)
    }

    /// Whether the comma-separated `value` holds `token`, in any case.
    static func hasToken(_ token: String, in value: String) -> Bool {
        value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).equalsIgnoringASCIICase(token) }
    }
}

extension StringProtocol {
    fileprivate func equalsIgnoringASCIICase(_ other: String) -> Bool {
        String(self).equalsIgnoringASCIICase(other)
    }
}
