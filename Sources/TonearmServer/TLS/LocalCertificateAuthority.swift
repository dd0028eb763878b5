import Crypto
import Foundation
import SwiftASN1
import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The certificate authority on this machine that signs the certificates ``TonearmServer`` presents over
/// TLS: the `--https-port` listener's and, when intercepting `CONNECT`, one per host the client asks for.
///
/// Clients trust it once (`tonearm ca` prints how for curl, Python, Node, Java and the simulators). It
/// cannot be name-constrained, since it must sign for whichever real host a client is pointed at, so it is
/// labelled instead: its subject is ``commonName``, it may sign leaves only (path length 0), and its key is
/// readable by the user alone. Its leaves are ECDSA P-256, valid for ``leafValidity``.
public struct LocalCertificateAuthority: Sendable {
    /// The subject every Tonearm CA carries, so that a user finding it in a trust store knows what it is.
    public static let commonName = "Tonearm local test CA"
    /// The file names inside the CA folder.
    public static let certificateFileName = "tonearm-ca.pem"
    /// The key's file, mode 0600.
    public static let keyFileName = "tonearm-ca-key.pem"
    /// How long leaves are valid: under the 398 days Apple platforms accept for a TLS server certificate.
    public static let leafValidity: TimeInterval = 397 * 24 * 3600

    /// The CA's certificate (swift-certificates' type stays out of the public API: PEM and the subject are its face).
    let certificate: Certificate
    /// Where the certificate is kept, when the CA lives in a folder (``loadOrCreate(in:)``).
    public let certificateFile: URL?
    private let key: P256.Signing.PrivateKey

    /// A new CA in memory only, for a test upstream or a one-off server; `label` is added to the
    /// subject so that two of them are told apart.
    public static func makeEphemeral(label: String = "ephemeral") throws(ServerError) -> LocalCertificateAuthority {
        let key = P256.Signing.PrivateKey()
        return LocalCertificateAuthority(certificate: try selfSigned(key: key, label: label), certificateFile: nil, key: key)
    }

    /// The CA kept in `folder` (`--ca-dir`), created there when the folder holds none: the folder is made
    /// (mode 0700) if missing, the key written with mode 0600.
    ///
    /// - Throws: ``ServerError`` naming the file that cannot be written or read, or a key that does not
    ///   belong to the certificate beside it.
    public static func loadOrCreate(in folder: URL) throws(ServerError) -> LocalCertificateAuthority {
        let certificateFile = folder.appendingPathComponent(certificateFileName)
        let keyFile = folder.appendingPathComponent(keyFileName)
        let manager = FileManager.default
        let hasCertificate = manager.fileExists(atPath: certificateFile.path)
        let hasKey = manager.fileExists(atPath: keyFile.path)
        if hasCertificate && hasKey { return try load(certificateFile: certificateFile, keyFile: keyFile) }
        if hasCertificate != hasKey {
            throw .tls(
                "load the certificate authority", file: folder.path,
                reason: "the folder holds \(hasCertificate ? certificateFileName : keyFileName) without "
                    + "\(hasCertificate ? keyFileName : certificateFileName); remove it to make a new CA, or restore the other file")
        }
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            // Foundation's own message says only "could not be completed"; the system's says why.
            let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
            let reason = underlying.map { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : "\($0)" }
            throw .tls("create the certificate authority folder", file: folder.path, reason: reason ?? "\(error)")
        }
        let key = P256.Signing.PrivateKey()
        let certificate = try selfSigned(key: key, label: ProcessInfo.processInfo.hostName)
        // The key first and exclusively: a CA whose key could not be written must not leave a certificate behind.
        try writeExclusively(Array(key.pemRepresentation.utf8), to: keyFile, mode: 0o600)
        let certificatePEM: String
        do {
            certificatePEM = try pem(certificate)
        } catch {
            throw .tls("write the certificate authority", file: certificateFile.path, reason: "\(error)")
        }
        try writeExclusively(Array(certificatePEM.utf8), to: certificateFile, mode: 0o644)
        return LocalCertificateAuthority(certificate: certificate, certificateFile: certificateFile, key: key)
    }

    /// The certificate's subject, e.g. `CN=Tonearm local test CA (host),O=…`: what a trust store lists it as.
    public var subject: String { certificate.subject.description }

    /// The CA's certificate as PEM, for a client's trust store.
    public var certificatePEM: String {
        // Serializing a certificate this type built or parsed does not fail; an empty string never reaches a client as trust.
        (try? Self.pem(certificate)) ?? ""
    }

    /// A leaf for `names` (DNS names or IP literals), signed by this CA, with a fresh P-256 key.
    public func issueLeaf(for names: [String], now: Date = Date()) throws(ServerError) -> IssuedCertificate {
        let leafKey = P256.Signing.PrivateKey()
        do {
            let subject = try DistinguishedName {
                CommonName(names.first ?? "localhost")
                OrganizationName("Tonearm local test certificate")
            }
            let alternativeNames = SubjectAlternativeNames(names.map(Self.generalName))
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                alternativeNames
                AuthorityKeyIdentifier(keyIdentifier: Self.keyIdentifier(of: certificate))
            }
            let leaf = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(leafKey.publicKey),
                notValidBefore: now - 3600, notValidAfter: now + Self.leafValidity, issuer: certificate.subject,
                subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(key))
            var serializer = DER.Serializer()
            try serializer.serialize(leaf)
            return IssuedCertificate(
                certificateDER: serializer.serializedBytes, certificatePEM: try Self.pem(leaf), privateKeyPEM: leafKey.pemRepresentation)
        } catch {
            throw .tls("issue a certificate", file: nil, reason: "for \(names.joined(separator: ", ")): \(error)")
        }
    }

    private init(certificate: Certificate, certificateFile: URL?, key: P256.Signing.PrivateKey) {
        self.certificate = certificate
        self.certificateFile = certificateFile
        self.key = key
    }

    private static func load(certificateFile: URL, keyFile: URL) throws(ServerError) -> LocalCertificateAuthority {
        let certificate: Certificate
        let key: P256.Signing.PrivateKey
        do {
            certificate = try Certificate(pemEncoded: String(contentsOf: certificateFile, encoding: .utf8))
        } catch {
            throw .tls("read the certificate authority", file: certificateFile.path, reason: "\(error)")
        }
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOf: keyFile, encoding: .utf8))
        } catch {
            throw .tls("read the certificate authority's key (an ECDSA P-256 key in PEM)", file: keyFile.path, reason: "\(error)")
        }
        guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
            throw .tls("load the certificate authority", file: keyFile.path, reason: "this key does not belong to \(certificateFile.path)")
        }
        return LocalCertificateAuthority(certificate: certificate, certificateFile: certificateFile, key: key)
    }

    private static func selfSigned(key: P256.Signing.PrivateKey, label: String) throws(ServerError) -> Certificate {
        let now = Date()
        do {
            let name = try DistinguishedName {
                CommonName("\(commonName) (\(label))")
                OrganizationName("Tonearm local test CA: trust only on test machines")
            }
            let publicKey = Certificate.PublicKey(key.publicKey)
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            }
            return try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
                notValidBefore: now - 3600, notValidAfter: now + 10 * 365 * 24 * 3600, issuer: name, subject: name,
                signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(key))
        } catch {
            throw .tls("create the certificate authority", file: nil, reason: "\(error)")
        }
    }

    private static func keyIdentifier(of certificate: Certificate) -> ArraySlice<UInt8> {
        let present = try? certificate.extensions.subjectKeyIdentifier
        return present?.keyIdentifier ?? SubjectKeyIdentifier(hash: certificate.publicKey).keyIdentifier
    }

    /// An IP address's bytes as an `iPAddress` name, anything else as a `dNSName`.
    private static func generalName(_ name: String) -> GeneralName {
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: withUnsafeBytes(of: &v4) { ArraySlice($0) }))
        }
        var v6 = in6_addr()
        let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: withUnsafeBytes(of: &v6) { ArraySlice($0) }))
        }
        return .dnsName(name)
    }

    private static func pem(_ certificate: Certificate) throws -> String {
        try certificate.serializeAsPEM().pemString + "\n"
    }

    /// Writes `bytes` to a file that must not exist yet, created with `mode` (never wider for a moment).
    private static func writeExclusively(_ bytes: [UInt8], to file: URL, mode: mode_t) throws(ServerError) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else {
            throw .tls("write the certificate authority", file: file.path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else {
                throw .tls("write the certificate authority", file: file.path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }
}

/// A certificate ``LocalCertificateAuthority`` issued, and its private key.
public struct IssuedCertificate: Sendable {
    /// The certificate, DER-encoded.
    public var certificateDER: [UInt8]
    /// The certificate as PEM.
    public var certificatePEM: String
    /// The private key as PKCS #8 PEM.
    public var privateKeyPEM: String
}
