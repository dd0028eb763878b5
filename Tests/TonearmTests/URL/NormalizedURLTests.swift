import Testing

@testable import Tonearm

/// Table tests for every rule of ``NormalizedURL``; each row names the rule it pins down.
@Suite("NormalizedURL")
struct NormalizedURLTests {
    // MARK: Scheme, host, port

    @Test(
        "scheme and host are lowercased, ASCII only",
        arguments: [
            ("HTTP://EXAMPLE.COM/", "http", "example.com"),
            ("HtTpS://Api.Example.Com/A", "https", "api.example.com"),
            ("http://ex%61mple.com/", "http", "example.com"),  // escape of an unreserved letter decoded, then lowercased
            ("http://EX%2fAMPLE/", "http", "ex%2Fample"),  // other escapes stay, with uppercase hex
            ("http://100%/", "http", "100%25"),  // a stray "%" is encoded
            ("http://BÜCHER.example/", "http", "bÜcher.example"),  // no Unicode case mapping, no IDNA
            ("Web+Socket.v2-x://Host/", "web+socket.v2-x", "host"),
        ])
    func schemeAndHostCase(input: String, scheme: String, host: String) {
        let url = NormalizedURL(input)
        #expect(url.scheme == scheme)
        #expect(url.host == host)
    }

    @Test(
        "default ports are dropped per scheme, others kept",
        arguments: [
            ("http://a:80/", nil), ("https://a:443/", nil), ("ws://a:80/", nil), ("wss://a:443/", nil),
            ("HTTPS://a:443/", nil),  // the scheme's case does not matter
            ("http://a:443/", 443), ("https://a:80/", 80), ("ws://a:443/", 443), ("wss://a:80/", 80),
            ("ftp://a:21/", 21),  // no default known for other schemes
            ("http://a:8080/", 8080), ("https://a:8443/x", 8443), ("http://a:0/", 0),
            ("http://a/", nil),
        ] as [(String, Int?)])
    func defaultPorts(input: String, port: Int?) {
        #expect(NormalizedURL(input).port == port)
    }

    @Test(
        "port text: empty, leading zeros, not a number",
        arguments: [
            ("http://a:/", "a", nil),  // empty port means the default
            ("http://a:0080/", "a", nil),  // 80 once leading zeros go, the default again
            ("http://a:08080/", "a", 8080),
            ("http://a:00/", "a", 0),
            ("http://a:b/", "a:b", nil),  // not a port: kept in the host rather than lost
            ("http://a:8o/", "a:8o", nil),
            ("http://a:1:80/", "a:1:80", nil),  // no unambiguous port after a second ":"
            ("http://a:99999999999999999999999/", "a:99999999999999999999999", nil),  // overflow
            ("http://a:65536/", "a", 65536),  // out of range but kept: lenient
            ("http://a:%38%30/", "a", nil),  // escaped digits are digits: port 80, the default
            ("http://a:8%30%380/", "a", 8080),
            ("http://[::1]:%38%30/", "[::1]", nil),
            ("http://a:%38x/", "a:8x", nil),  // not a port once decoded: kept in the host, decoded
        ] as [(String, String, Int?)])
    func portText(input: String, host: String, port: Int?) {
        let url = NormalizedURL(input)
        #expect(url.host == host)
        #expect(url.port == port)
    }

    @Test(
        "IPv6 literals keep their brackets and colons",
        arguments: [
            ("http://[::1]:8080/x", "[::1]", 8080),
            ("http://[::1]/", "[::1]", nil),
            ("https://[::1]:443/", "[::1]", nil),
            ("http://[::1]:/", "[::1]", nil),
            ("http://[2001:DB8::A]/", "[2001:db8::a]", nil),
            ("http://user@[::1]:81", "[::1]", 81),
            ("http://[fe80::1%25eth0]/", "[fe80::1%25eth0]", nil),  // RFC 6874 zone identifier
            ("http://[::1]x/", "[::1]x", nil),  // junk after "]" stays in the host
            ("http://[::1/", "[::1", nil),  // unclosed: all host
        ] as [(String, String, Int?)])
    func ipv6(input: String, host: String, port: Int?) {
        let url = NormalizedURL(input)
        #expect(url.host == host)
        #expect(url.port == port)
    }

    @Test("origin joins scheme, host and a non-default port")
    func origin() {
        #expect(NormalizedURL("HTTPS://Example.com:8443/a?b").origin == "https://example.com:8443")
        #expect(NormalizedURL("https://example.com:443/a").origin == "https://example.com")
        #expect(NormalizedURL("http://[::1]:8080").origin == "http://[::1]:8080")
        #expect(NormalizedURL("/a?b").origin == "")
    }

    // MARK: Userinfo and fragment

    @Test(
        "userinfo is dropped, up to the last @",
        arguments: [
            ("http://user:pass@example.com/", "example.com", nil, "http://example.com/"),
            ("http://user@example.com:81/", "example.com", 81, "http://example.com:81/"),
            ("http://a@b@example.com/", "example.com", nil, "http://example.com/"),
            ("http://:@example.com/", "example.com", nil, "http://example.com/"),
            ("http://user:p%40ss@h/", "h", nil, "http://h/"),
            ("http://user@/", "", nil, "http:///"),
        ] as [(String, String, Int?, String)])
    func userinfo(input: String, host: String, port: Int?, withoutQuery: String) {
        let url = NormalizedURL(input)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.withoutQuery == withoutQuery)
    }

    @Test(
        "the fragment is dropped",
        arguments: [
            ("http://a/b#frag", "/b", nil),
            ("http://a/b?x=1#frag", "/b", "x=1"),
            ("http://a/b?#", "/b", ""),
            ("http://a#f?x", "/", nil),  // "?" inside the fragment is not a query
            ("http://a/b#", "/b", nil),
            ("/b#f", "/b", nil),
            ("http://a/b?x #f", "/b", "x"),  // spaces before the fragment go with it
            ("http://a/b #f", "/b", nil),
        ] as [(String, String, String?)])
    func fragment(input: String, path: String, query: String?) {
        let url = NormalizedURL(input)
        #expect(url.path == path)
        #expect(url.query == query)
    }

    // MARK: Percent-encoding in paths

    @Test(
        "escapes: hex uppercased, unreserved decoded, reserved kept",
        arguments: [
            ("/%7e", "/~"), ("/%7E", "/~"), ("/%41%42c", "/ABc"), ("/%2d%2E%5f", "/-._"),
            ("/%30%39", "/09"),
            ("/%2f", "/%2F"), ("/%2F", "/%2F"), ("/a%2fb", "/a%2Fb"),  // "%2F" is not "/"
            ("/%3a%40", "/%3A%40"), ("/%20", "/%20"), ("/%c3%a9", "/%C3%A9"), ("/%25", "/%25"),
            ("/%21", "/%21"),  // an escaped sub-delim stays escaped: RFC 3986 does not equate it with "!"
        ])
    func escapes(input: String, path: String) {
        #expect(NormalizedURL("http://h" + input).path == path)
        #expect(NormalizedURL(input).path == path)
    }

    @Test(
        "a % that starts no escape becomes %25",
        arguments: [
            ("/%", "/%25"), ("/%4", "/%254"), ("/%zz", "/%25zz"), ("/%4g", "/%254g"), ("/a%", "/a%25"),
            ("/%%41", "/%25A"),  // the second "%" starts a valid escape
            ("/100%/x", "/100%25/x"),
        ])
    func invalidEscapes(input: String, path: String) {
        #expect(NormalizedURL("http://h" + input).path == path)
    }

    @Test(
        "bytes not allowed literally are encoded",
        arguments: [
            ("/a b", "/a%20b"), ("/\"", "/%22"), ("/<>", "/%3C%3E"), ("/\\", "/%5C"), ("/^", "/%5E"),
            ("/`", "/%60"), ("/{|}", "/%7B%7C%7D"), ("/[]", "/%5B%5D"), ("/\u{1}\u{1F}x", "/%01%1Fx"),
            ("/\u{7F}", "/%7F"), ("/a\tb", "/a%09b"),
            ("/é", "/%C3%A9"), ("/日本", "/%E6%97%A5%E6%9C%AC"), ("/😀", "/%F0%9F%98%80"),
        ])
    func disallowedBytes(input: String, path: String) {
        #expect(NormalizedURL("http://h" + input).path == path)
    }

    @Test("characters allowed in a path stay literal")
    func allowedLiterals() {
        let path = "/AZaz09-._~!$&'()*+,;=:@/x"
        #expect(NormalizedURL("http://h" + path).path == path)
    }

    @Test("non-ASCII in any spelling is one path", arguments: ["/café", "/caf%C3%A9", "/caf%c3%a9", "/caf%C3%a9"])
    func nonASCIISpellings(input: String) {
        #expect(NormalizedURL(input).path == "/caf%C3%A9")
    }

    // MARK: Dot segments

    @Test(
        "dot segments are removed",
        arguments: [
            ("/a/b/../c/./d", "/a/c/d"), ("/..", "/"), ("/.", "/"), ("/../..", "/"), ("/a/..", "/"),
            ("/a/../", "/"), ("/a/./", "/a/"), ("/a/b/..", "/a/"), ("/a/b/../../../c", "/c"),
            ("/a/%2E%2E/b", "/b"), ("/a/.%2e/b", "/b"), ("/a/%2e/b", "/a/b"),  // escapes decoded first
            ("/a/..b/c", "/a/..b/c"), ("/a/.b", "/a/.b"), ("/a/b..", "/a/b.."), ("/a/.../b", "/a/.../b"),
            ("/./a:b", "/a:b"),
        ])
    func dotSegments(input: String, path: String) {
        #expect(NormalizedURL("http://h" + input).path == path)
        #expect(NormalizedURL(input).path == path)
    }

    /// RFC 3986 §5.4 resolves references against "http://a/b/c/d;p?q". For relative-path references the
    /// merged path is "/b/c/" plus the reference, and its remove_dot_segments result is the path of the
    /// expected target, so normalising the merged URL must give that path.
    @Test(
        "RFC 3986 §5.4 examples",
        arguments: [
            ("g", "/b/c/g"), ("./g", "/b/c/g"), ("g/", "/b/c/g/"), (";x", "/b/c/;x"), ("g;x", "/b/c/g;x"),
            ("", "/b/c/"), (".", "/b/c/"), ("./", "/b/c/"), ("..", "/b/"), ("../", "/b/"), ("../g", "/b/g"),
            ("../..", "/"), ("../../", "/"), ("../../g", "/g"),
            // §5.4.2 abnormal examples
            ("../../../g", "/g"), ("../../../../g", "/g"), ("g.", "/b/c/g."), (".g", "/b/c/.g"),
            ("g..", "/b/c/g.."), ("..g", "/b/c/..g"), ("./../g", "/b/g"), ("./g/.", "/b/c/g/"),
            ("g/./h", "/b/c/g/h"), ("g/../h", "/b/c/h"), ("g;x=1/./y", "/b/c/g;x=1/y"), ("g;x=1/../y", "/b/c/y"),
        ])
    func rfcExamples(reference: String, path: String) {
        #expect(NormalizedURL("http://a/b/c/" + reference).path == path)
    }

    @Test("absolute-path references of RFC 3986 §5.4.2", arguments: [("/./g", "/g"), ("/../g", "/g")])
    func rfcAbsoluteExamples(reference: String, path: String) {
        #expect(NormalizedURL("http://a" + reference).withoutQuery == "http://a" + path)
    }

    // MARK: Path shape

    @Test(
        "an empty path is /, and // and trailing / are kept",
        arguments: [
            ("http://a", "/"), ("http://a?x", "/"), ("http://a#x", "/"), ("", "/"), ("?x", "/"),
            ("http://a/b/", "/b/"), ("http://a/b", "/b"), ("http://a//b", "//b"), ("http://a/b//c/", "/b//c/"),
        ])
    func pathShape(input: String, path: String) {
        #expect(NormalizedURL(input).path == path)
    }

    // MARK: Origin-form and odd input

    @Test(
        "origin-form input has no scheme or host",
        arguments: [
            ("/path?x=1", "/path", "x=1"), ("/", "/", nil), ("/a/../b?", "/b", ""),
            ("path/x", "/path/x", nil),  // made absolute
            ("*", "/*", nil), ("//host/p", "//host/p", nil),  // no scheme, so no authority either
            ("1http://a/", "/1http://a/", nil),  // a scheme starts with a letter
            ("a b:c", "/a%20b:c", nil),  // and has no spaces
            ("?", "/", ""),
        ] as [(String, String, String?)])
    func originForm(input: String, path: String, query: String?) {
        let url = NormalizedURL(input)
        #expect(url.scheme == "")
        #expect(url.host == "")
        #expect(url.port == nil)
        #expect(url.path == path)
        #expect(url.query == query)
        #expect(url.origin == "")
        #expect(url.withoutQuery == path)
    }

    @Test(
        "a scheme without // has an empty host",
        arguments: [
            ("mailto:someone@example.com", "mailto", "/someone@example.com", "mailto:///someone@example.com"),
            ("http:x/y", "http", "/x/y", "http:///x/y"),
            ("localhost:8080/x", "localhost", "/8080/x", "localhost:///8080/x"),  // as RFC 3986 reads it
            ("urn:isbn:0451450523", "urn", "/isbn:0451450523", "urn:///isbn:0451450523"),
        ])
    func schemeWithoutAuthority(input: String, scheme: String, path: String, withoutQuery: String) {
        let url = NormalizedURL(input)
        #expect(url.scheme == scheme)
        #expect(url.host == "")
        #expect(url.path == path)
        #expect(url.withoutQuery == withoutQuery)
    }

    @Test(
        "surrounding spaces and controls are ignored",
        arguments: ["  http://a/b  ", "\thttp://a/b\n", "\u{0}http://a/b\u{1F}", "http://a/b \r\n"])
    func surroundingWhitespace(input: String) {
        #expect(NormalizedURL(input).withoutQuery == "http://a/b")
    }

    @Test("the query is kept verbatim")
    func rawQuery() {
        #expect(NormalizedURL("http://a/?B=%7e+x&&é").query == "B=%7e+x&&é")
        #expect(NormalizedURL("http://a/").query == nil)
        #expect(NormalizedURL("http://a/?").query == "")
        #expect(NormalizedURL("http://a/?a?b").query == "a?b")
    }

    // MARK: Equality, description, setters

    @Test("equivalent spellings normalise to equal values")
    func equivalentSpellings() {
        let spellings = [
            "HTTP://Example.COM:80/a/./b/../%7Ec?x=1#frag",
            "http://example.com/a/~c?x=1",
            "http://user:pw@EXAMPLE.com:0080/a/%7ec?x=1",
            "  http://example.com:/a/c/../~c?x=1  ",
        ]
        let urls = spellings.map(NormalizedURL.init)
        for url in urls {
            #expect(url == urls[0])
            #expect(url.hashValue == urls[0].hashValue)
            #expect(url.description == "http://example.com/a/~c?x=1")
        }
    }

    @Test("different resources stay different")
    func differentResources() {
        let distinct = [
            "http://a/b", "http://a/b/", "http://a//b", "http://a/%2Fb", "http://a/B", "https://a/b",
            "http://a:81/b", "http://b/b", "/b", "http://a/b?", "http://a/b?x",
        ].map(NormalizedURL.init)
        #expect(Set(distinct).count == distinct.count)
    }

    @Test("equality compares bytes, not Unicode canonical equivalence")
    func byteEquality() {
        // Queries are raw, so precomposed and decomposed é differ in bytes though String == equates them.
        let precomposed = NormalizedURL("http://a/?\u{E9}")
        let decomposed = NormalizedURL("http://a/?e\u{301}")
        #expect(precomposed.query == decomposed.query)  // String equality: canonical equivalence
        #expect(precomposed != decomposed)
    }

    @Test("setting a component stores it as given")
    func setters() {
        var url = NormalizedURL("https://example.com:8443/a?x=1")
        url.path = "/b"
        #expect(url.description == "https://example.com:8443/b?x=1")
        url.query = nil
        #expect(url.description == "https://example.com:8443/b")
        url.port = nil
        url.host = "other.example"
        url.scheme = "http"
        #expect(url.withoutQuery == "http://other.example/b")
        #expect(url == NormalizedURL("http://other.example/b"))
        url.scheme = ""
        url.host = ""
        #expect(url.origin == "")
        #expect(url == NormalizedURL("/b"))
        url.host = "h"
        #expect(url.origin == "//h")  // a host without scheme: the network-path form
    }

    @Test("the byte view agrees with the String properties")
    func bytesView() {
        for input in ["https://a.example:8443/p/q?x=1&y=2", "/p", "http://h/?"] {
            let url = NormalizedURL(input)
            url.withUnsafeBytes { withoutQuery, query in
                #expect(String(decoding: withoutQuery, as: UTF8.self) == url.withoutQuery)
                #expect(query.map { String(decoding: $0, as: UTF8.self) } == url.query)
            }
        }
    }
}
