import Tonearm

/// What a ``ServerConfiguration`` carries of a server extension: its reserved path and how to build it
/// when the server starts (`ServerConfiguration.installedExtension`).
package protocol ServerExtensionInstaller: Sendable {
    /// The path prefix the extension's API answers under (`/__admin`), beginning `/__`: the server routes
    /// it to the extension's ``ServerExtension/apiStage``, and its control-plane guard and admin token
    /// cover it.
    var reservedPrefix: String { get }
    /// The extension, built from what the server shares with it.
    func makeExtension(in context: ServerExtensionContext) throws(ServerError) -> any ServerExtension
}
