/// Where a request goes, decided from its target alone, before any matching.
package enum RequestRoute: Sendable, Equatable {
    /// The control API; `path` is what follows `/__tonearm/` (without the query), `query` the query.
    case control(path: String, query: String)
    /// A call to the installed server extension's API (``ServerExtensionInstaller/reservedPrefix``,
    /// WireMock's `/__admin`); `path` is what follows the prefix and its `/` (without the query or
    /// trailing slashes), `query` the query.
    case extensionAPI(path: String, query: String)
    /// An upstream exchange: the URL the request stands for, and its host when the network may be used.
    case upstream(url: String, host: UpstreamHost?)
    /// A local request with no upstream (`/v1/users` on a stub server): rules and path-only tracks answer.
    case local(target: String)
    /// Refused before matching, with a status and a message saying what to do instead.
    case refused(status: Int, message: String)
    /// A `CONNECT` the server takes over: the requests inside take the origin of `host`. For an
    /// `https` host TLS is terminated here (`--intercept-https`); an allowed `http` host's tunnel is
    /// plain (a client's `ws://` or `http://` through a proxy that always tunnels), no certificate needed.
    case tunnel(host: UpstreamHost)

    /// The reserved prefix of the control API.
    static let controlPrefix = "/__tonearm"
    /// Whether this is a call to the server's own APIs (the control API, an extension's API), which
    /// the control-plane guard covers and no traffic stage answers.
    var isControlPlane: Bool {
        switch self {
        case .control, .extensionAPI: true
        case .upstream, .local, .refused, .tunnel: false
        }
    }

    /// Routes `target` (the request line's target) for `method`.
    ///
    /// - Parameters:
    ///   - allowed: Hosts the server may reach (`--host`, `--upstream`).
    ///   - upstream: The single upstream for origin-form requests without a host component.
    ///   - replayOnly: In replay mode nothing reaches the network, so any host named in the path is
    ///     matched against the cassette rather than refused.
    ///   - replayHosts: The hosts of the cassette's tracks, whose schemes replay mode uses.
    ///   - intercepting: Whether `CONNECT` to an allowed host is intercepted (``ServerConfiguration/TLS/interceptsHTTPS``).
    ///   - extensionPrefix: The reserved prefix of the installed server extension's API, if any.
    static func resolve(
        method: String, target: String, allowed: [UpstreamHost], upstream: UpstreamHost?, replayOnly: Bool,
        replayHosts: [UpstreamHost] = [], intercepting: Bool = false, extensionPrefix: String? = nil
    ) -> RequestRoute {
        if method.equalsIgnoringASCIICase("CONNECT") {
            return tunnel(to: target, allowed: allowed, replayOnly: replayOnly, replayHosts: replayHosts, intercepting: intercepting)
        }
        // Origin form (`/…`) is nearly every request: it skips the absolute-form checks.
        let originForm = target.utf8.first == UInt8(ascii: "/")
        if !originForm, case let lowered = target.prefix(8).lowercased(), lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let host = UpstreamHost(ofURL: target) else {
                return .refused(status: 400, message: "the request target \(target) is not an absolute http URL")
            }
            if let allowedHost = allowed.first(where: { $0 == host }) { return .upstream(url: target, host: allowedHost) }
            if replayOnly { return .upstream(url: target, host: nil) }
            return refusal(host.origin, allowed: allowed)
        }
        guard originForm else {
            return .refused(status: 400, message: "the request target \(target.debugDescription) is neither a path nor an absolute URL")
        }
        if isControl(target) {
            var rest = target.dropFirst(controlPrefix.count)
            if rest.hasPrefix("/") { rest = rest.dropFirst() }
            let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            return .control(path: String(parts.first ?? ""), query: parts.count > 1 ? String(parts[1]) : "")
        }
        if let extensionPrefix, let call = extensionCall(target, prefix: extensionPrefix) { return call }
        let (component, rest) = firstComponent(of: target)
        if let host = allowed.first(where: { $0.authority == component }) {
            return .upstream(url: url(on: host, rest), host: host)
        }
        if replayOnly, let host = replayHosts.first(where: { $0.authority == component }) {
            return .upstream(url: url(on: host, rest), host: nil)
        }
        if let upstream { return .upstream(url: url(on: upstream, target), host: upstream) }
        if looksLikeHost(component) {
            if replayOnly { return .upstream(url: "https://" + component + rest, host: nil) }
            return refusal(component, allowed: allowed)
        }
        return .local(target: target)
    }

    /// The first path component of the origin-form `target` (lowercased) and the rest of it, starting
    /// with `/`: `("api.example.com", "/v1/users?page=2")` for `/API.example.com/v1/users?page=2`.
    ///
    /// Every proxied or replayed request is routed here, so an ASCII target (any target NIO's parser
    /// lets through in practice) is split on its bytes; the grapheme walk it equals for ASCII cost
    /// several thousand instructions a request (docs/benchmarks-history.md, "Request path toward the NIO
    /// floor").
    static func firstComponent(of target: String) -> (component: String, rest: String) {
        if let split = target.utf8.withContiguousStorageIfAvailable(asciiFirstComponent), let split { return split }
        return graphemeFirstComponent(of: target)
    }

    /// ``firstComponent(of:)`` by walking `target`'s characters: the reference for any target, and the
    /// way taken by one that is not all ASCII.
    static func graphemeFirstComponent(of target: String) -> (component: String, rest: String) {
        let afterSlash = target.dropFirst()
        let end = afterSlash.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterSlash.endIndex
        let rest = String(afterSlash[end...])
        return (afterSlash[..<end].lowercased(), rest.hasPrefix("/") ? rest : "/" + rest)
    }

    /// ``firstComponent(of:)`` of an all-ASCII target in one pass over its bytes; `nil` when it has
    /// other bytes (their grapheme walk is the reference).
    private static func asciiFirstComponent(_ bytes: UnsafeBufferPointer<UInt8>) -> (component: String, rest: String)? {
        guard !bytes.isEmpty else { return ("", "/") }
        var end = bytes.count
        var hasUppercase = false
        var index = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x80 { return nil }
            if end == bytes.count {
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") {
                    end = index
                } else if byte &- UInt8(ascii: "A") < 26 {
                    hasUppercase = true
                }
            }
            index += 1
        }
        let name = UnsafeBufferPointer(rebasing: bytes[1..<end])
        let component = hasUppercase
            ? String(unsafeUninitializedCapacity: name.count) { lowered in
                for (offset, byte) in name.enumerated() { lowered[offset] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }
                return name.count
            }
            : String(decoding: name, as: UTF8.self)
        let tail = UnsafeBufferPointer(rebasing: bytes[end...])
        let rest = tail.first == UInt8(ascii: "/") ? String(decoding: tail, as: UTF8.self) : "/" + String(decoding: tail, as: UTF8.self)
        return (component, rest)
    }

    /// Whether `target` is addressed to the control API: `/__tonearm`, `/__tonearm/…` or `/__tonearm?…`.
    static func isControl(_ target: String) -> Bool {
        mayBeReserved(target) && target.utf8.starts(with: controlPrefix.utf8)
            && (target == controlPrefix || target.hasPrefix(controlPrefix + "/") || target.hasPrefix(controlPrefix + "?"))
    }

    /// The call `target` makes to the extension API under `prefix` (`/__admin`, `/__admin/…`,
    /// `/__admin?…` for WireMock's), if it is one.
    static func extensionCall(_ target: String, prefix: String) -> RequestRoute? {
        guard mayBeReserved(target), target.hasPrefix(prefix) else { return nil }
        var rest = target.dropFirst(prefix.count)
        guard rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") else { return nil }
        if rest.hasPrefix("/") { rest = rest.dropFirst() }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = String(parts.first ?? "")
        while path.hasSuffix("/") { path.removeLast() }
        return .extensionAPI(path: path, query: parts.count > 1 ? String(parts[1]) : "")
    }

    /// Whether `target` begins `/__`, as the reserved paths (the control API's, an extension's API's)
    /// do: three byte comparisons turn away nearly every request before any prefix is compared as a
    /// string (a `hasPrefix` compares characters, a few hundred instructions each time).
    static func mayBeReserved(_ target: String) -> Bool {
        let start = target.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count >= 3 && bytes[0] == UInt8(ascii: "/") && bytes[1] == UInt8(ascii: "_") && bytes[2] == UInt8(ascii: "_")
        }
        // A string without contiguous UTF-8 (bridged) is compared the slow way.
        return start ?? target.utf8.starts(with: "/__".utf8)
    }

    /// The URL `rest` (a path, query and all) stands for on `host`, built in one allocation: every
    /// proxied or replayed request's URL is built here, where `host.origin + rest` formatted the origin
    /// and then grew the string (about 1,500 instructions a request).
    static func url(on host: UpstreamHost, _ rest: String) -> String {
        let separator = "://"
        let count = host.scheme.utf8.count + separator.utf8.count + host.authority.utf8.count + rest.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = 0
            func put(_ part: String) {
                written += UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: part.utf8)
            }
            put(host.scheme)
            put(separator)
            put(host.authority)
            put(rest)
            return written
        }
    }

    /// A first path component that names a host: has a dot or a port, or is `localhost`.
    ///
    /// On the bytes: Foundation's `contains` of a string cost about 3,700 instructions a call, on every
    /// request to a local path (a stub rule's, say).
    static func looksLikeHost(_ component: String) -> Bool {
        component == "localhost" || component.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }
    }

    /// The route of `CONNECT target`: a tunnel to an allowed (or, replaying, recorded) host, plain for an
    /// `http` one, intercepted for an `https` one, else a refusal saying why. Never a blind tunnel.
    private static func tunnel(
        to target: String, allowed: [UpstreamHost], replayOnly: Bool, replayHosts: [UpstreamHost], intercepting: Bool
    ) -> RequestRoute {
        // Allowed as `http://host:port`: the tunnel's requests are plain HTTP, read here like any other.
        if let plain = UpstreamHost(connectTarget: target, scheme: "http"),
            allowed.contains(plain) || (replayOnly && replayHosts.contains(plain))
        {
            return .tunnel(host: plain)
        }
        guard intercepting else {
            return .refused(status: 405, message: """
                CONNECT is not intercepted by this server: start it with --intercept-https (and trust the CA \
                `tonearm ca` prints) to record and replay HTTPS through HTTPS_PROXY, or point the client at \
                http://<this server>/<host>/<path> (the host as the first path component).
                """)
        }
        guard let host = UpstreamHost(connectTarget: target) else {
            return .refused(status: 400, message: "the CONNECT target \(target.debugDescription) is not host:port")
        }
        if allowed.contains(host) || (replayOnly && replayHosts.contains(host)) { return .tunnel(host: host) }
        if replayOnly {
            return .refused(status: 403, message: """
                \(host.origin) has no recordings in this cassette, so Tonearm will not open a tunnel to it \
                (replay mode intercepts only the hosts its cassette has; it is never an open proxy).
                """)
        }
        return refusal(host.origin, allowed: allowed)
    }

    private static func refusal(_ host: String, allowed: [UpstreamHost]) -> RequestRoute {
        let list = allowed.isEmpty ? "none (start the server with --host or --upstream)" : allowed.map(\.origin).joined(separator: ", ")
        return .refused(status: 403, message: """
            \(host) is not an allowed host, so Tonearm will not send requests there (it is never an open proxy). \
            Allowed hosts: \(list). Add it with --host \(host).
            """)
    }
}
