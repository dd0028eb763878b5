/// A request URL normalised per RFC 3986 §6 for matching.
///
/// Two URLs that RFC 3986 §6.2.2–6.2.3 calls equivalent normalise to equal values, so a recorded request
/// still matches when a client spells the same URL differently: "HTTP://Example.COM:80/a/./b/../%7Ec"
/// and "http://example.com/a/~c" are the same resource.
///
/// The rules, in the order they apply:
/// - The input is split as in RFC 3986 Appendix B: `scheme ":" "//" authority path ["?" query] ["#" fragment]`.
///   Leading and trailing spaces and C0 controls (of the input, and before the fragment) are ignored, as
///   WHATWG parsers do: they can only be copy-and-paste artefacts, since no request line can carry them.
///   Tabs and newlines inside the URL are not removed (WHATWG removes them); in a path they get encoded.
/// - The fragment is dropped: clients never send it. Userinfo ("user:pass@") is dropped: credentials do
///   not select a resource, and must not end up in a recording.
/// - Input that does not start with a valid scheme ("/path?x", "*", "example.com/x") is origin-form, the
///   way an HTTP/1.1 request line carries it: scheme and host are empty and everything before "?" is the
///   path. "//host/x" is origin-form too. A valid scheme without "//" ("mailto:x", "http:x") gives an empty
///   host, and "localhost:8080/x" reads as scheme "localhost", exactly as RFC 3986 parses them.
/// - Scheme and host are lowercased, ASCII letters only. The host gets no IDNA or punycode conversion and
///   no IPv4 number-form or IPv6 zero-compression canonicalisation: "bücher.example" and its punycode
///   spelling, or "[::1]" and "[0::1]", stay different. Escapes in the host are normalised as in paths.
/// - The port is the number after the last ":" of the authority (after the "]" of an IPv6 literal), leading
///   zeros ignored, escaped digits read as digits (":%38%30" is 80). An empty port and the scheme's default port (80 for http and ws, 443 for https and wss)
///   become `nil`. Text after ":" that is not a number stays part of the host rather than being lost.
/// - The path is percent-normalised: hex digits uppercase, escapes of unreserved characters decoded, other
///   escapes kept (`%2F` is not "/"), a "%" that starts no valid escape becomes `%25`, and bytes RFC 3986
///   does not allow literally in a path are encoded: controls, space, `"`, `<`, `>`, `[`, `\`, `]`, `^`,
///   backtick, `{`, `|`, `}`, DEL and non-ASCII UTF-8 bytes. Then dot segments are removed (§5.2.4). The
///   path always starts with "/", so an empty path is "/". "//" and a trailing "/" are kept: servers
///   may treat "/a/" and "/a", or "//a" and "/a", as different resources.
/// - The query is kept verbatim: `FormEncoding` compares queries, because query equivalence depends on
///   form conventions ("+" for space, parameter order) that RFC 3986 does not know about.
///
/// Normalising is idempotent: parsing `withoutQuery`, plus "?" and the query when there is one, again
/// yields an equal value. Equality and hashing compare UTF-8 bytes, not Unicode canonical equivalence,
/// to agree with keys hashed from bytes.
///
/// The value holds the normalised URL as one byte buffer, so that normalising costs one allocation and
/// key building can read `withoutQuery` and the query without making Strings (see `withUnsafeBytes`);
/// the String properties are made from it on each access. Setting a property stores the new text as given, without normalising it.
public struct NormalizedURL: Sendable, Hashable, CustomStringConvertible {
    /// `origin + path`, then "?" and the query when there is one.
    var storage: ByteStorage
    var schemeEnd: Int
    var hostStart: Int
    var hostEnd: Int
    var pathStart: Int
    var pathEnd: Int
    var portNumber: Int?

    /// Lowercased; empty when the input was origin-form ("/path?x") without a scheme.
    public var scheme: String {
        get { text(0..<schemeEnd) }
        set { self = NormalizedURL(scheme: newValue, host: host, port: port, path: path, query: query) }
    }

    /// Lowercased ASCII letters, IPv6 literals with their brackets; empty for origin-form input.
    public var host: String {
        get { text(hostStart..<hostEnd) }
        set { self = NormalizedURL(scheme: scheme, host: newValue, port: port, path: path, query: query) }
    }

    /// The explicit port, `nil` when absent, empty, or the default of the scheme.
    public var port: Int? {
        get { portNumber }
        set { self = NormalizedURL(scheme: scheme, host: host, port: newValue, path: path, query: query) }
    }

    /// The normalised absolute path; "/" when the input had none.
    public var path: String {
        get { text(pathStart..<pathEnd) }
        set { self = NormalizedURL(scheme: scheme, host: host, port: port, path: newValue, query: query) }
    }

    /// The raw text after "?" up to any "#"; `nil` when there was no "?". Empty and absent queries differ
    /// here, but both give no pairs in `FormEncoding`.
    public var query: String? {
        get { pathEnd < storage.count ? text((pathEnd &+ 1)..<storage.count) : nil }
        set { self = NormalizedURL(scheme: scheme, host: host, port: port, path: path, query: newValue) }
    }

    /// "scheme://host:port" as it identifies the server; "" for origin-form input, which names none.
    public var origin: String { text(0..<pathStart) }

    /// The URL up to but not including "?": what identifies the resource apart from its parameters.
    public var withoutQuery: String { text(0..<pathEnd) }

    /// The whole normalised URL: `withoutQuery`, then "?" and the query when there is one.
    public var description: String { text(0..<storage.count) }

    /// Normalises `url`. Never fails: any input gives its best-effort reading, so that a matcher can
    /// still compare whatever a client or a recording contains.
    public init(_ url: String) {
        var url = url
        self = url.withUTF8 { NormalizedURL(utf8: $0) }
    }

    /// Normalises a URL given as UTF-8 bytes, writing every component straight into the one buffer.
    init(utf8 input: UnsafeBufferPointer<UInt8>) {
        var layout = Layout()
        storage = Self.normalize(utf8: input) { capacity, write in
            ByteStorage.make(capacity: capacity) { buffer in
                layout = write(buffer)
                return layout.count
            }
        }
        (schemeEnd, hostStart, hostEnd, pathStart, pathEnd, portNumber) =
            (layout.schemeEnd, layout.hostStart, layout.hostEnd, layout.pathStart, layout.pathEnd, layout.port)
    }

    /// Where the components of a normalised URL are in its bytes.
    struct Layout {
        var schemeEnd = 0, hostStart = 0, hostEnd = 0, pathStart = 0, pathEnd = 0
        var port: Int?
        /// The number of bytes: `pathEnd` without a query, else the end of the query after "?".
        var count = 0
    }

    /// Parses `input` and runs `body` with the most bytes its normalised form can take and a function that
    /// writes that form into a buffer of at least that size, returning where the components are.
    ///
    /// Separate from the initialiser so that key building can normalise into memory of its own (the
    /// stack) when it needs the URL's bytes only while it writes a key, and never allocates.
    @inline(__always)
    static func normalize<R>(
        utf8 input: UnsafeBufferPointer<UInt8>,
        _ body: (_ capacity: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Layout) -> R
    ) -> R {
        let split = URLSplit(input)
        var hostRange = 0..<0
        var port: Int?
        if split.authority != nil {
            (hostRange, port) = URLAuthority.split(input, split)
            if let explicit = port, let scheme = split.scheme,
                explicit == URLAuthority.defaultPort(scheme: UnsafeBufferPointer(rebasing: input[scheme]))
            {
                port = nil
            }
        }
        let host = UnsafeBufferPointer(rebasing: input[hostRange])
        let hostIsNormal = split.authorityIsNormal || URLAuthority.isNormalHost(host)
        let path = UnsafeBufferPointer(rebasing: input[split.path])
        let pathIsNormal = split.pathIsNormal
        var capacity = URLPath.capacity(for: path, isNormal: pathIsNormal) &+ (split.query.map { $0.count &+ 1 } ?? 0)
        if let scheme = split.scheme {
            capacity &+= scheme.count &+ 3
            capacity &+= hostIsNormal ? host.count : host.count &* 3
            if let port { capacity &+= 1 &+ URLAuthority.decimalDigitCount(port) }
        }
        return body(capacity) { buffer in
            var layout = Layout(port: port)
            var end = 0
            if let scheme = split.scheme {
                for index in scheme {
                    buffer[end] = PercentEncoding.asciiLowercased(input[index])
                    end &+= 1
                }
                layout.schemeEnd = end
                end = Self.writeSeparator(into: buffer, at: end, schemeIsEmpty: false)
                layout.hostStart = end
                end = hostIsNormal
                    ? URLBytes.copy(host, into: buffer, at: end) : URLAuthority.writeHost(host, into: buffer, at: end)
                layout.hostEnd = end
                if let port { end = URLAuthority.writePort(port, into: buffer, at: end) }
            }
            layout.pathStart = end
            end = URLPath.write(path, isNormal: pathIsNormal, into: buffer, at: end)
            layout.pathEnd = end
            if let query = split.query {
                buffer[end] = UInt8(ascii: "?")
                end = URLBytes.copy(UnsafeBufferPointer(rebasing: input[query]), into: buffer, at: end &+ 1)
            }
            layout.count = end
            return layout
        }
    }

    /// Assembles components as given, for the property setters: no normalisation, since a caller who sets
    /// a component means that exact text. Without scheme, host and port there is no origin at all; with a
    /// host but no scheme the origin is "//host", the RFC 3986 network-path form.
    init(scheme: String, host: String, port: Int?, path: String, query: String?) {
        var scheme = scheme, host = host, path = path
        let hasOrigin = !(scheme.isEmpty && host.isEmpty && port == nil)
        var schemeEnd = 0, hostStart = 0, hostEnd = 0, pathStart = 0, pathEnd = 0
        storage = scheme.withUTF8 { schemeBytes in
            host.withUTF8 { hostBytes in
                path.withUTF8 { pathBytes in
                    Self.withOptionalUTF8(query) { queryBytes in
                        var capacity = pathBytes.count &+ (queryBytes.map { $0.count &+ 1 } ?? 0)
                        if hasOrigin {
                            capacity &+= schemeBytes.count &+ 3 &+ hostBytes.count
                            if let port { capacity &+= 1 &+ URLAuthority.decimalDigitCount(port) }
                        }
                        return ByteStorage.make(capacity: capacity) { buffer in
                            var end = 0
                            if hasOrigin {
                                end = URLBytes.copy(schemeBytes, into: buffer, at: end)
                                schemeEnd = end
                                end = Self.writeSeparator(into: buffer, at: end, schemeIsEmpty: schemeBytes.isEmpty)
                                hostStart = end
                                end = URLBytes.copy(hostBytes, into: buffer, at: end)
                                hostEnd = end
                                if let port { end = URLAuthority.writePort(port, into: buffer, at: end) }
                            }
                            pathStart = end
                            end = URLBytes.copy(pathBytes, into: buffer, at: end)
                            pathEnd = end
                            if let queryBytes {
                                buffer[end] = UInt8(ascii: "?")
                                end = URLBytes.copy(queryBytes, into: buffer, at: end &+ 1)
                            }
                            return end
                        }
                    }
                }
            }
        }
        (self.schemeEnd, self.hostStart, self.hostEnd, self.pathStart, self.pathEnd) =
            (schemeEnd, hostStart, hostEnd, pathStart, pathEnd)
        portNumber = port
    }

    /// Reads the normalised `withoutQuery` and query (`nil` when there is none) as bytes, for key
    /// building on the hot path, where making Strings would cost more than the normalisation itself.
    func withUnsafeBytes<R>(
        _ body: (_ withoutQuery: UnsafeRawBufferPointer, _ query: UnsafeRawBufferPointer?) throws -> R
    ) rethrows -> R {
        try storage.withBytes { typed in
            let bytes = UnsafeRawBufferPointer(typed)
            let query = pathEnd < bytes.count ? UnsafeRawBufferPointer(rebasing: bytes[(pathEnd &+ 1)...]) : nil
            return try body(UnsafeRawBufferPointer(rebasing: bytes[0..<pathEnd]), query)
        }
    }

    /// Equal when every component has the same bytes (an empty query differs from none); canonically
    /// equivalent but differently encoded Unicode, possible only in a host or query, is not equal.
    public static func == (lhs: NormalizedURL, rhs: NormalizedURL) -> Bool {
        lhs.schemeEnd == rhs.schemeEnd && lhs.hostStart == rhs.hostStart && lhs.hostEnd == rhs.hostEnd
            && lhs.pathStart == rhs.pathStart && lhs.pathEnd == rhs.pathEnd && lhs.portNumber == rhs.portNumber
            && (lhs.storage === rhs.storage
                || lhs.storage.withBytes { a in rhs.storage.withBytes { b in a.elementsEqual(b) } })
    }

    /// Hashes the component bytes, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(schemeEnd)
        hasher.combine(hostStart)
        hasher.combine(hostEnd)
        hasher.combine(pathStart)
        hasher.combine(pathEnd)
        hasher.combine(portNumber)
        storage.withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    func text(_ range: Range<Int>) -> String {
        storage.withBytes { URLBytes.string($0, range) }
    }

    @inline(__always)
    static func writeSeparator(into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int, schemeIsEmpty: Bool) -> Int {
        var end = start
        if !schemeIsEmpty {
            buffer[end] = UInt8(ascii: ":")
            end &+= 1
        }
        buffer[end] = UInt8(ascii: "/")
        buffer[end &+ 1] = UInt8(ascii: "/")
        return end &+ 2
    }

    @inline(__always)
    static func withOptionalUTF8<R>(_ text: String?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard var text else { return body(nil) }
        return text.withUTF8 { body($0) }
    }
}
