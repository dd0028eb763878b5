/// What the server shares with the extension it builds (``ServerExtensionInstaller``): its
/// configuration, journal, address and the shutdown a client may ask for.
package struct ServerExtensionContext: Sendable {
    /// The configuration the server started with.
    package let configuration: ServerConfiguration
    /// The server's journal of exchanges.
    package let journal: Journal
    /// The server's address, known once bound.
    package let address: ServerAddress
    /// A client's request that the server stop, which the server waits for.
    package let shutdown: ShutdownRequest
}
