/// An upstream the server connects to at another address than its name resolves to, as curl's
/// `--connect-to HOST:PORT:ADDRESS:PORT` does (`tonearm serve --connect-to`).
///
/// Requests to `https://HOST:PORT` connect to `ADDRESS:PORT` instead, and nothing else changes: the URL
/// recorded, the `Host` field, the server name sent in TLS (SNI) and the name the upstream's certificate
/// must carry stay `HOST`'s. A stand-in on this machine can so answer for a real host name while a test
/// records, e.g. `api.example.test:443:127.0.0.1:8443`.
public struct UpstreamConnection: Sendable, Hashable, CustomStringConvertible {
    /// The host name the URLs carry, lowercased (`api.example.test`).
    public var host: String
    /// The port the URLs carry (443 for an `https` URL without one, 80 for `http`).
    public var port: Int
    /// The address connected to instead: an IP address or a host name (`127.0.0.1`).
    public var address: String
    /// The port connected to instead.
    public var addressPort: Int

    /// A connection from its parts; `host` is lowercased.
    public init(host: String, port: Int, address: String, addressPort: Int) {
        self.host = host.lowercased()
        self.port = port
        self.address = address
        self.addressPort = addressPort
    }

    /// A connection from a `--connect-to` value, `HOST:PORT:ADDRESS:PORT` (an IPv6 address in brackets),
    /// or an error saying what is expected.
    public init(parsing text: String) throws(ServerError) {
        let invalid = ServerError.invalid(
            what: "connect-to", value: text,
            expected: "HOST:PORT:ADDRESS:PORT, such as api.example.test:443:127.0.0.1:8443")
        var parts: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                parts.append(String(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: close)...]
                if rest.hasPrefix(":") { rest = rest.dropFirst() } else if !rest.isEmpty { throw invalid }
            } else {
                let end = rest.firstIndex(of: ":") ?? rest.endIndex
                parts.append(String(rest[..<end]))
                rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
            }
        }
        guard parts.count == 4, !parts[0].isEmpty, !parts[2].isEmpty,
            let port = Int(parts[1]), (1...65535).contains(port),
            let addressPort = Int(parts[3]), (1...65535).contains(addressPort),
            !parts[0].contains(where: { "/?#@ ".contains($0) }), !parts[2].contains(where: { "/?#@ ".contains($0) })
        else { throw invalid }
        self.init(host: parts[0], port: port, address: parts[2], addressPort: addressPort)
    }

    /// `HOST:PORT:ADDRESS:PORT`, as the command line takes it.
    public var description: String {
        let address = self.address.contains(":") ? "[\(self.address)]" : self.address
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "\(host):\(port):\(address):\(addressPort)"
    }
}
