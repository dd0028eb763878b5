import Tonearm

/// The checks in front of every control (`/__tonearm/`) and admin (`/__admin/`) request, decided from
/// the request and the server's identity alone (see "Who may use the control plane" in docs/server.md).
///
/// A web page open in the developer's browser can send requests to `127.0.0.1`: simple cross-origin
/// requests go out without a CORS preflight, and a DNS-rebound name makes them look same-origin. The
/// guard refuses what only such a page sends, and lets through what the Swift API, curl, WireMock's
/// clients and test scripts send:
///
/// 1. a `Host` that is not the server's own loopback name or address with its port (DNS rebinding);
/// 2. `Sec-Fetch-Site` other than `same-origin` or `none` (the browser says another site sent it);
/// 3. an `Origin` other than the server's own (`http://` and the `Host` it was reached by);
/// 4. without `Authorization: Bearer TOKEN` when a token is set (401), except for the inspector, whose
///    address carries a token of its own (a page's navigation and event feed cannot send a header);
/// 5. a `POST` whose body a browser may send without a preflight: `text/plain`, a form type, or any
///    body without a `Content-Type` (`PUT`, `DELETE` and `PATCH` are never sent across origins without a
///    preflight, which the server does not answer, so they may carry any body: `PUT /__admin/files/…`). JSON is required (YAML too for `/__tonearm/stubs`). A bodiless
///    state change without a `Content-Type` (`curl -X POST …/__admin/reset`) goes through: a browser
///    sending it cross-origin adds an `Origin`, which check 3 refuses. So does a request no browser
///    sent: no `Origin`, no `Sec-Fetch-Site`, and a `User-Agent` that is not a browser's (every browser's
///    starts with `Mozilla/`, and a page cannot change it). WireMock's Java client sends its JSON as
///    `text/plain; charset=UTF-8`.
///
/// Traffic routes (replay, record, mappings) are never guarded: the app's own requests come from
/// anywhere the app runs.
struct ControlPlaneGuard: Sendable, Equatable {
    /// The port the server listens on.
    var port: Int
    /// The HTTPS port, when the server has one: its own too, with `https://` origins.
    var httpsPort: Int? = nil
    /// The address the server is bound to.
    var bindAddress: String
    /// The bearer token control requests must carry, when set.
    var token: String?

    /// Why a request is refused: the status (403, or 401 for a missing or wrong token) and what to do.
    struct Refusal: Sendable, Equatable {
        var status: Int
        var message: String

        /// Headers the answer carries: the message (as for other refusals) and, for 401, the scheme.
        var headers: [HeaderField] {
            [HeaderField("Tonearm-Refused", message)] + (status == 401 ? [HeaderField("WWW-Authenticate", "Bearer")] : [])
        }
    }

    /// The refusal for `request`, or `nil` when it may go through. Call it for requests routed to the
    /// control plane (``RequestRoute/isControlPlane``).
    func refusal(for request: ServerRequest) -> Refusal? {
        let hosts = request.headers.values(named: "Host")
        if hosts.count > 1 {
            return Refusal(status: 403, message: "the request has \(hosts.count) Host headers; send one, \(ownAuthority)")
        }
        let host = hosts.first
        if let host, !isOwn(host) {
            return Refusal(status: 403, message: """
                Host \(host.debugDescription) is not this server (DNS rebinding protection): the control and admin \
                APIs answer only requests addressed to \(ownAuthorities.joined(separator: ", ")). \
                Use one of these in the URL.
                """)
        }
        for site in request.headers.values(named: "Sec-Fetch-Site") {
            let value = site.trimmingHTTPWhitespace.lowercased()
            if value != "same-origin", value != "none" {
                return Refusal(status: 403, message: """
                    Sec-Fetch-Site: \(value) says a page from another site sent this request; the control and admin \
                    APIs answer only this server's own pages and non-browser clients (curl, tests, WireMock clients)
                    """)
            }
        }
        for origin in request.headers.values(named: "Origin") {
            let expected = host.map { scheme(of: $0) + $0.trimmingHTTPWhitespace.lowercased() }
            if origin.trimmingHTTPWhitespace.lowercased() != expected {
                return Refusal(status: 403, message: """
                    Origin \(origin.debugDescription) is not this server's own (\(expected ?? "http://" + ownAuthority)): \
                    the control and admin APIs refuse requests from other web pages. Call them from a test, a script or \
                    curl, not from a page in a browser
                    """)
            }
        }
        // The inspector's page and event feed cannot send a header (a browser's navigation and
        // EventSource): its address carries a token of its own, which the inspector checks.
        if let token, !Self.isInspector(request.target), !Self.authorizes(request.headers.values(named: "Authorization"), token: token) {
            return Refusal(status: 401, message: """
                the control and admin APIs need Authorization: Bearer <token>, the token the server was started \
                with (--admin-token)
                """)
        }
        return contentTypeRefusal(request)
    }

    /// Refuses a state change a browser could send across origins without a preflight.
    private func contentTypeRefusal(_ request: ServerRequest) -> Refusal? {
        let method = request.method.uppercased()
        guard method == "POST", Self.mayBeFromABrowser(request) else { return nil }
        let acceptsYAML = request.target.hasPrefix(RequestRoute.controlPrefix + "/stubs")
        let accepted = acceptsYAML ? "application/json or a YAML type" : "application/json"
        guard let contentType = request.headers.first(named: "Content-Type") else {
            if request.body.isEmpty { return nil }
            return Refusal(status: 403, message: """
                \(method) \(Self.pathOnly(request.target)) has a body but no Content-Type; send Content-Type: \(accepted) \
                (curl: --json, or -H 'Content-Type: application/json'). Browsers send bodies without one across \
                origins without asking, so the control and admin APIs refuse them
                """)
        }
        let essence = MediaType.essence(of: contentType)
        if MediaType.isJSON(essence: essence) || (acceptsYAML && Self.isYAML(essence)) { return nil }
        return Refusal(status: 403, message: """
            \(method) \(Self.pathOnly(request.target)) needs Content-Type: \(accepted), not \(contentType.debugDescription) \
            (curl: --json, or -H 'Content-Type: application/json'). Browsers send text/plain and form bodies across \
            origins without asking, so the control and admin APIs refuse them
            """)
    }

    /// Whether a browser could have sent `request`: it carries `Origin` or `Sec-Fetch-Site`, or a
    /// browser's `User-Agent` (all start with `Mozilla/`), or none (a browser always sends one). The old
    /// browsers that leave `Origin` out of a cross-origin form post still send their `User-Agent`, and a
    /// page can set neither header.
    private static func mayBeFromABrowser(_ request: ServerRequest) -> Bool {
        if request.headers.first(named: "Origin") != nil || request.headers.first(named: "Sec-Fetch-Site") != nil { return true }
        guard let agent = request.headers.first(named: "User-Agent") else { return true }
        return agent.trimmingHTTPWhitespace.lowercased().hasPrefix("mozilla/")
    }

    /// The names the server answers to: loopback names and addresses, and the bind address.
    private var ownHosts: [String] {
        var names = ["localhost", "127.0.0.1", "[::1]"]
        let bound = bindAddress.contains(":") && !bindAddress.hasPrefix("[") ? "[\(bindAddress)]" : bindAddress
        if !names.contains(bound.lowercased()) { names.append(bound.lowercased()) }
        return names
    }

    /// Each own name with the port, as a `Host` header carries it.
    private var ownAuthorities: [String] { ownHosts.map { "\($0):\(port)" } }

    private var ownAuthority: String { "127.0.0.1:\(port)" }

    /// A wildcard bind answers on addresses the server cannot list: any `Host` goes, and the token,
    /// which such a bind requires, keeps rebound pages out.
    private var bindsEverywhere: Bool { ["0.0.0.0", "::", "[::]"].contains(bindAddress) }

    /// Whether a `Host` header names this server: an own name, and the port (80 when left out).
    private func isOwn(_ host: String) -> Bool {
        if bindsEverywhere { return true }
        let text = host.trimmingHTTPWhitespace.lowercased()
        let name: Substring, portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return false }
            name = text[...close]
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            portText = rest.isEmpty ? nil : rest.dropFirst()
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return false }
            name = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
        }
        let givenPort = portText.map { Int($0) } ?? 80
        return (givenPort == port || (givenPort != nil && givenPort == httpsPort)) && ownHosts.contains(String(name))
    }

    /// `https://` for a `Host` naming the HTTPS port, else `http://`: the scheme of the server's own pages there.
    private func scheme(of host: String) -> String {
        guard let httpsPort, host.trimmingHTTPWhitespace.hasSuffix(":\(httpsPort)") else { return "http://" }
        return "https://"
    }

    /// Whether one `Authorization` value is `Bearer <token>`, compared in constant time so the
    /// answer's timing does not tell how much of a guess was right.
    static func authorizes(_ values: [String], token: String) -> Bool {
        guard values.count == 1, let value = values.first else { return false }
        let parts = value.trimmingHTTPWhitespace.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        return isSameSecret(Array(String(parts[1]).trimmingHTTPWhitespace.utf8), Array(token.utf8))
    }

    /// Whether `given` is `expected`, compared in constant time (in `expected`'s length) so the
    /// answer's timing does not tell how much of a guess was right.
    static func isSameSecret(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = given.count == expected.count ? 0 : 1
        for index in 0..<expected.count {
            difference |= Int(expected[index] ^ (index < given.count ? given[index] : 0))
        }
        return difference == 0
    }

    /// Whether `target` is the inspector's (`/__tonearm/inspector…`).
    static func isInspector(_ target: String) -> Bool {
        let prefix = RequestRoute.controlPrefix + "/" + Inspector.pathPrefix
        guard target.hasPrefix(prefix) else { return false }
        let rest = target.dropFirst(prefix.count)
        return rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?")
    }

    /// The YAML types clients send (none is one a browser may send without a preflight).
    private static func isYAML(_ essence: String) -> Bool {
        ["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"].contains(essence)
    }

    private static func pathOnly(_ target: String) -> Substring {
        target.prefix { $0 != "?" }
    }
}
