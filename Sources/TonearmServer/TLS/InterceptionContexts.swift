import NIOSSL
import Synchronization

/// The TLS context presented to a client that tunnels to a host through `CONNECT`: one per host, with a
/// leaf the ``LocalCertificateAuthority`` signs on first use, kept for the next tunnel to that host.
///
/// At most ``capacity`` are kept; the oldest made is dropped first, so a client naming endless hosts
/// (only allowed ones reach here, but a replay cassette may hold many) costs bounded memory.
final class InterceptionContexts: Sendable {
    /// Why a handshake was refused after the client named a host in its hello.
    struct NameMismatch: Error, CustomStringConvertible {
        var tunnelHost: String
        var serverName: String
        var description: String {
            "the TLS server name \(serverName) is not the host of the CONNECT (\(tunnelHost)); "
                + "Tonearm presents a certificate only for the host the tunnel was opened to"
        }
    }

    static let capacity = 1024

    private struct Cache {
        var contexts: [String: NIOSSLContext] = [:]
        var madeInOrder: [String] = []
    }

    private let authority: LocalCertificateAuthority
    private let cache = Mutex(Cache())

    init(authority: LocalCertificateAuthority) {
        self.authority = authority
    }

    /// The context for a tunnel to `hostName` (a DNS name or an IP literal, without port).
    func context(for hostName: String) throws(ServerError) -> NIOSSLContext {
        let name = hostName.lowercased()
        if let context = cache.withLock({ $0.contexts[name] }) { return context }
        // Signed outside the lock: two first tunnels to one host may both sign, and one leaf is kept.
        let issued = try authority.issueLeaf(for: [name])
        var tls = try ServerTLS.configuration(presenting: issued)
        tls.sslContextCallback = { hello, promise in
            // A client that names no server (IP literals, some clients) gets the tunnel's certificate;
            // one naming another host is refused rather than shown a certificate for a name it did not ask for.
            if let serverName = hello.serverHostname, serverName.lowercased() != name {
                promise.fail(NameMismatch(tunnelHost: name, serverName: serverName))
            } else {
                promise.succeed(.noChanges)
            }
        }
        let context = try ServerTLS.context(tls, for: "the certificate for \(name)")
        return cache.withLock { cache in
            if let existing = cache.contexts[name] { return existing }
            if cache.madeInOrder.count >= Self.capacity {
                let oldest = cache.madeInOrder.removeFirst()
                cache.contexts[oldest] = nil
            }
            cache.contexts[name] = context
            cache.madeInOrder.append(name)
            return context
        }
    }
}
