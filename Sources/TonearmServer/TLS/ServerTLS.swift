import Foundation
import NIOSSL

/// The TLS the server speaks: what the `--https-port` listener presents, the contexts for intercepted
/// tunnels, and whom the upstream client trusts. Made once when the server starts, so a missing or
/// unreadable certificate fails the start with its file named, not the first handshake.
struct ServerTLS: Sendable {
    /// The `--https-port` listener's context; `nil` without one.
    let listener: NIOSSLContext?
    /// The per-host contexts for `CONNECT` tunnels; `nil` when the server does not intercept.
    let interception: InterceptionContexts?
    /// The upstream client's TLS: the system's trust store, plus `--upstream-ca`.
    let upstream: TLSConfiguration

    /// Only `http/1.1` is offered through ALPN (docs/server.md, "HTTPS"): the request path is HTTP/1.1.
    static let applicationProtocols = ["http/1.1"]

    init(configuration: ServerConfiguration) throws(ServerError) {
        let authority = configuration.tls.certificateAuthority
        if configuration.tls.httpsPort != nil {
            listener = try Self.listenerContext(configuration, authority: authority)
        } else {
            listener = nil
        }
        if configuration.tls.interceptsHTTPS {
            guard let authority else {
                throw .invalid(
                    what: "HTTPS interception", value: "on",
                    expected: "a certificate authority (ServerConfiguration.certificateAuthority, tonearm serve --ca-dir) to sign the hosts' certificates")
            }
            interception = InterceptionContexts(authority: authority)
        } else {
            interception = nil
        }
        var upstream = TLSConfiguration.makeClientConfiguration()
        for file in configuration.tls.upstreamCertificateAuthorities {
            do {
                upstream.additionalTrustRoots.append(.certificates(try NIOSSLCertificate.fromPEMFile(file.path)))
            } catch {
                throw .tls("read the upstream certificate authority (--upstream-ca, PEM)", file: file.path, reason: "\(error)")
            }
        }
        self.upstream = upstream
    }

    /// The listener's context: `--tls-cert`/`--tls-key` when given, else a leaf for the loopback names
    /// signed by the CA.
    private static func listenerContext(
        _ configuration: ServerConfiguration, authority: LocalCertificateAuthority?
    ) throws(ServerError) -> NIOSSLContext {
        switch (configuration.tls.certificateFile, configuration.tls.keyFile) {
        case (let certificateFile?, let keyFile?):
            let chain: [NIOSSLCertificate]
            let key: NIOSSLPrivateKey
            do {
                chain = try NIOSSLCertificate.fromPEMFile(certificateFile.path)
            } catch {
                throw .tls("read the TLS certificate (--tls-cert, PEM)", file: certificateFile.path, reason: "\(error)")
            }
            do {
                key = try NIOSSLPrivateKey(file: keyFile.path, format: .pem)
            } catch {
                throw .tls("read the TLS key (--tls-key, PEM)", file: keyFile.path, reason: "\(error)")
            }
            var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            tls.applicationProtocols = applicationProtocols
            return try context(tls, for: certificateFile.path)
        case (nil, nil):
            guard let authority else {
                throw .invalid(
                    what: "HTTPS port", value: "\(configuration.tls.httpsPort ?? 0)",
                    expected: "a certificate: --tls-cert and --tls-key, or a certificate authority (--ca-dir) to sign one for localhost")
            }
            return try context(try Self.configuration(presenting: authority.issueLeaf(for: loopbackNames)), for: "the localhost certificate")
        default:
            throw .invalid(what: "TLS certificate", value: configuration.tls.certificateFile?.path ?? configuration.tls.keyFile?.path ?? "",
                expected: "--tls-cert and --tls-key together")
        }
    }

    /// The names the `--https-port` leaf covers.
    static let loopbackNames = ["localhost", "127.0.0.1", "::1"]

    /// A server configuration presenting `issued`, offering ``applicationProtocols``.
    static func configuration(presenting issued: IssuedCertificate) throws(ServerError) -> TLSConfiguration {
        do {
            let certificate = try NIOSSLCertificate(bytes: issued.certificateDER, format: .der)
            let key = try NIOSSLPrivateKey(bytes: Array(issued.privateKeyPEM.utf8), format: .pem)
            var tls = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
            tls.applicationProtocols = applicationProtocols
            return tls
        } catch {
            throw .tls("use an issued certificate", file: nil, reason: "\(error)")
        }
    }

    static func context(_ configuration: TLSConfiguration, for what: String) throws(ServerError) -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw .tls("set up TLS", file: what, reason: "\(error)")
        }
    }
}
