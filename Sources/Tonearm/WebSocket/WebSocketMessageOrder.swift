/// How a replayed WebSocket conversation matches the client's messages to the recording.
///
/// Written `recorded` or `keyed` on the command line (`tonearm serve --websocket-order`) and in
/// `TONEARM_WEBSOCKET_ORDER`.
public struct WebSocketMessageOrder: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: String, Sendable, Hashable {
        case recorded, keyed
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// Each client message must be the one recorded next (the default): a conversation whose order
    /// matters (a login, then a subscription) replays only as it was recorded.
    public static let recorded = WebSocketMessageOrder(.recorded)
    /// Each client message is answered by the server messages recorded after the same message, in any
    /// order: request/response protocols over a socket (JSON-RPC, GraphQL over WebSocket) whose client
    /// sends its requests in an order of its own.
    public static let keyed = WebSocketMessageOrder(.keyed)

    /// Reads `recorded` or `keyed`; `nil` for anything else.
    public init?(_ text: String) {
        guard let storage = Storage(rawValue: text.lowercased()) else { return nil }
        self.storage = storage
    }

    /// `recorded` or `keyed`.
    public var description: String { storage.rawValue }
}
