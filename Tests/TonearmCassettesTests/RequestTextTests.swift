import Foundation
import PropertyBased
import Testing
import Tonearm
import TonearmCassettes
import TonearmTestSupport

/// Requests pasted as text into the inspector: curl commands (checked against the real curl, which
/// sends each command line to a capture server) and raw HTTP requests; and requests copied as curl.
@Suite("Requests as text: curl commands and raw HTTP")
struct RequestTextTests {
    // MARK: curl, against the real curl

    /// Command lines as people paste them, each sent by the real curl and read by `RequestText.parse`.
    /// The capture server speaks plain HTTP, so Chrome's https URLs are written http here (the https
    /// form is read in `chromeHTTPS`).
    static let curlCommandLines: [String] = [
        // Chrome DevTools "Copy as cURL (bash)": a POST with $'…' data and --compressed.
        #"""
        curl 'http://api.example.com/v1/items?x=1' -H 'accept: application/json' -H 'accept-language: en-GB,en;q=0.9' -H 'content-type: application/json' -H 'cookie: sid=abc; theme=dark' -H 'origin: http://app.example.com' -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36' --data-raw $'{"name":"caf\\u00e9\\nx","note":"it\'s"}' --compressed
        """#,
        // Chrome's multi-line form: backslash-newline continuations.
        "curl 'http://api.example.com/v1/items' \\\n  -H 'accept: */*' \\\n  -H 'sec-ch-ua: \"Chromium\";v=\"124\"' \\\n  --compressed",
        "curl example.com/search?q=1",
        "curl 'http://h/x#fragment'",
        "curl -d 'a=1' -d 'b=two words' http://h/form",
        "curl -X PUT -H 'Content-Type: text/plain' --data-binary $'line1\\r\\nline2\\n' http://h/x",
        "curl --data-ascii $'kept\\nnewline' --data-raw '@not-a-file' http://h/x",
        "curl --data-urlencode 'q=a b&c' --data-urlencode '=é~*' --data-urlencode plain http://h/x",
        "curl -G -d a=1 --data-urlencode 'b=c-d' 'http://h/x?z=0'",
        "curl -I http://h/x",
        "curl --head -X POST http://h/x",
        "curl -u 'alice:s3cr:et' -A 'MyAgent/1.0' -e 'http://ref/;auto' -b 'a=1' -b 'b=2; c=3' http://h/x",
        #"curl --json '{"a":1}' --json '[2]' http://h/x"#,
        #"curl --json '{"a":1}' -H 'Accept: text/plain' http://h/x"#,
        "curl -d x --json y http://h/x",
        "curl -sSL -XPOST -H'X-Attached: yes' -H 'X-Empty;' -H 'X-Not-Sent' -d '' http://h/x",
        "curl -s -S -v -i -L -k --insecure --location --silent --fail -o out.json --output out2 -w '%{http_code}' --max-time 5 --connect-timeout 3 -m 9 http://h/x",
        "curl --url http://h/x --request DELETE -H 'Authorization: Bearer t0k'",
        "curl -X GET -d z=1 -H 'Content-Type:' http://h/x",
        #"curl -H "X-Quote: \"double\" \$5 and 'single'" "http://h/x?a=b""#,
        "curl --compressed -H 'Accept-Encoding: gzip' http://h/x",
        "curl -u 'u:p' -H 'Authorization: Bearer x' http://h/x",
        "curl -g 'http://h/x?a[]=1&b={2}'",
    ]

    @Test(
        "a curl command line reads as the request the real curl sends",
        .enabled(if: CurlCapture.curlPath != nil, "curl is not installed: the real-curl comparison is skipped"),
        arguments: curlCommandLines)
    func curlCommandMatchesRealCurl(_ commandLine: String) async throws {
        let parsed = try RequestText.parse(commandLine)
        let sent = try await CurlCapture.run(commandLine)
        #expect(sent.comparable(ignoringDefaultsAbsentFrom: parsed) == CurlCapture.Sent.comparable(parsed))
    }

    @Test("Chrome's https command keeps its https URL")
    func chromeHTTPS() throws {
        let request = try RequestText.parse(
            #"curl 'https://api.example.com/v1/items?x=1' -H 'accept: application/json' -H 'content-type: application/json' --data-raw $'{"name":"caf\\u00e9\\nx"}'"#)
        #expect(request.method == "POST")
        #expect(request.url == "https://api.example.com/v1/items?x=1")
        #expect(request.headers == [HeaderField("accept", "application/json"), HeaderField("content-type", "application/json")])
        // Chrome doubles the JSON escapes inside $'…', so the body holds `\u00e9` and `\n` as JSON writes them.
        #expect(request.body == Array(#"{"name":"caf\u00e9\nx"}"#.utf8))
    }

    @Test("curl's own defaults (User-Agent, Accept: */*, Host) are not in the parsed request")
    func curlDefaultsLeftOut() throws {
        let request = try RequestText.parse("curl http://h/x")
        #expect(request == Request(method: "GET", url: "http://h/x", headers: [], body: []))
    }

    // MARK: curl, refused

    static let refusedCommands: [(command: String, line: Int, column: Int, mentions: String)] = [
        ("curl -F a=b http://h", 1, 6, "multipart"),
        ("curl --bogus http://h", 1, 6, "--bogus"),
        ("curl --url=http://h", 1, 6, "--url=http://h"),
        ("curl -d @body.json http://h", 1, 9, "@body.json"),
        ("curl --data-urlencode name@file http://h", 1, 23, "name@file"),
        ("curl -H @headers.txt http://h", 1, 9, "@headers.txt"),
        ("curl -b cookies.txt http://h", 1, 9, "cookie file"),
        (#"curl -H "Authorization: Bearer $TOKEN" http://h"#, 1, 32, "$TOKEN"),
        ("curl 'http://h", 1, 15, "line 1, column 6"),
        ("curl http://h | jq .", 1, 15, "`|`"),
        ("curl http://h && echo done", 1, 15, "`&`"),
        ("curl -u alice http://h", 1, 9, "password"),
        ("curl 'http://h/{a,b}'", 1, 6, "-g"),
        ("curl http://h \\\n  --nope", 2, 3, "--nope"),
        ("curl", 1, 5, "a URL"),
        ("curl -I -d a http://h", 1, 6, "-I"),
        ("curl http://a http://b", 1, 15, "second URL"),
        ("curl ftp://h/file", 1, 6, "http or https"),
        ("curl -H", 1, 6, "`-H`"),
    ]

    @Test("a command curl would not send, or that needs a file or a shell, is refused where the problem is")
    func refusedCommand() {
        for refused in Self.refusedCommands {
            do {
                let request = try RequestText.parse(refused.command)
                Issue.record("\(refused.command) read as \(request)")
            } catch {
                #expect(error.line == refused.line, "\(refused.command): \(error)")
                #expect(error.column == refused.column, "\(refused.command): \(error)")
                #expect(error.description.contains(refused.mentions), "\(refused.command): \(error)")
            }
        }
    }

    @Test("errors count columns in characters, not bytes")
    func columnsInCharacters() throws {
        #expect(throws: RequestTextError(line: 1, column: 15, expected: "a curl option that this reader knows", found: "`--nope`")) {
            try RequestText.parse("curl 'é/é' -s --nope")
        }
    }

    // MARK: Raw HTTP

    @Test("a raw request with LF line ends: origin-form target plus Host, http by default even on :443")
    func rawOriginForm() throws {
        let request = try RequestText.parse("GET /v1/items?x=1 HTTP/1.1\nHost: api.example.com:443\nAccept: */*\n\n")
        #expect(request == Request(
            method: "GET", url: "http://api.example.com:443/v1/items?x=1",
            headers: [HeaderField("Host", "api.example.com:443"), HeaderField("Accept", "*/*")]))
    }

    @Test("a raw request with CRLF and Content-Length takes that many body bytes; trailing line ends are ignored")
    func rawContentLength() throws {
        let request = try RequestText.parse("\r\nPOST https://h/x HTTP/1.1\r\nContent-Length: 7\r\nX-Folded: a\r\n  b\r\n\r\n{\"a\":1}\r\n")
        #expect(request.method == "POST")
        #expect(request.url == "https://h/x")
        #expect(request.headers == [HeaderField("Content-Length", "7"), HeaderField("X-Folded", "a b")])
        #expect(request.body == Array(#"{"a":1}"#.utf8))
    }

    @Test("without Content-Length the body is the rest of the text, byte for byte")
    func rawBodyRest() throws {
        let request = try RequestText.parse("PUT /x HTTP/1.0\nHost: h\n\nline1\nline2\n")
        #expect(request.body == Array("line1\nline2\n".utf8))
    }

    @Test("a chunked body is decoded; chunk extensions and trailers are not part of it")
    func rawChunked() throws {
        let request = try RequestText.parse(
            "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n")
        #expect(request.body == Array("hello, world".utf8))
        #expect(request.headers.first(named: "Transfer-Encoding") == "chunked")
    }

    static let refusedRaw: [(text: String, line: Int, column: Int, mentions: String)] = [
        ("GET /x HTTP/1.1\nAccept: */*\n\n", 1, 5, "Host"),
        ("POST /x HTTP/1.1\nHost: h\nContent-Length: 10\n\nshort", 5, 6, "10 body bytes"),
        ("POST /x HTTP/1.1\nHost: h\nContent-Length: 2\n\nabc", 5, 3, "after 2 body bytes"),
        ("POST /x HTTP/1.1\nHost: h\nContent-Length: -1\n\n", 3, 1, "Content-Length"),
        ("GET /x HTTP/1.1\nHost: h\nnot a header\n\n", 3, 1, "Name: value"),
        ("GET /x HTTP/1.1\nHost : h\n\n", 2, 5, "without blanks"),
        ("GET /x\nHost: h\n\n", 1, 1, "request line"),
        ("GET /x HTTX/1.1\nHost: h\n\n", 1, 8, "HTTP version"),
        ("POST /x HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\nzz\nabc\n", 5, 1, "hexadecimal"),
        ("POST /x HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n9\nabc\n", 7, 1, "9 bytes of chunk data"),
        ("   \n\n", 3, 1, "a curl command or an HTTP request"),
    ]

    @Test("a raw request that is not well formed is refused at the line and column of the problem")
    func refusedRawRequest() {
        for refused in Self.refusedRaw {
            do {
                let request = try RequestText.parse(refused.text)
                Issue.record("\(refused.text.debugDescription) read as \(request)")
            } catch {
                #expect(error.line == refused.line, "\(refused.text.debugDescription): \(error)")
                #expect(error.column == refused.column, "\(refused.text.debugDescription): \(error)")
                #expect(error.description.contains(refused.mentions), "\(refused.text.debugDescription): \(error)")
            }
        }
    }

    // MARK: Copy as curl

    @Test("Copy as curl writes single-quoted words, -X only where curl would not infer the method")
    func renderedShapes() {
        #expect(RequestText.curlCommand(for: Request(url: "http://h/x")) == "curl 'http://h/x'")
        #expect(RequestText.curlCommand(for: Request(method: "HEAD", url: "http://h/x")) == "curl --head 'http://h/x'")
        #expect(RequestText.curlCommand(for: Request(method: "POST", url: "http://h/x")) == "curl -X POST 'http://h/x'")
        #expect(
            RequestText.curlCommand(
                for: Request(method: "POST", url: "http://h/x", headers: [HeaderField("Content-Type", "text/plain"), HeaderField("X-Q", "it's")], body: "a'b"))
                == #"curl 'http://h/x' -H 'Content-Type: text/plain' -H 'X-Q: it'\''s' --data-binary 'a'\''b'"#)
        #expect(
            RequestText.curlCommand(for: Request(method: "PUT", url: "http://h/x", headers: [HeaderField("X-Empty", "")], body: [0xFF, 0x01, 0x41, 0x27]))
                == #"curl -X PUT 'http://h/x' -H 'X-Empty;' -H 'Content-Type:' --data-binary $'\xFF\x01A\''"#)
        #expect(
            RequestText.curlCommand(for: Request(method: "POST", url: "/x", headers: [HeaderField("Host", "h:1")], body: [0x00, 0x25]))
                == #"printf '\x00%%' | curl 'http://h:1/x' -H 'Host: h:1' -H 'Content-Type:' --data-binary @-"#)
    }

    static let renderedRequests: [Request] = renderedRequestList()

    static func renderedRequestList() -> [Request] {
        let allBytes: [UInt8] = (0...255).map { UInt8($0) }
        return [
        Request(url: "http://h/x"),
        Request(method: "HEAD", url: "http://h/x?a=1"),
        Request(method: "DELETE", url: "http://h/items/7", headers: [HeaderField("Authorization", "Bearer t")]),
        Request(method: "POST", url: "http://h/x", headers: [HeaderField("Content-Type", "application/json")], body: #"{"name":"café ☕","q":"it's \"x\""}"#),
        Request(method: "POST", url: "http://h/x", body: "no content type\r\nkept"),
        Request(method: "PUT", url: "http://h/bin", headers: [HeaderField("Content-Type", "application/octet-stream")], body: allBytes),
        Request(method: "PATCH", url: "http://h/x", headers: [HeaderField("X-Empty", ""), HeaderField("X-Quote", "it's 'quoted' $HOME `x`")], body: [0xC3, 0x28, 0x0B]),
        Request(method: "GET", url: "http://h/x", headers: [HeaderField("Content-Type", "text/plain")], body: "get with a body"),
        Request(method: "POST", url: "http://h/x", headers: [HeaderField("Content-Type", "text/plain")], body: "@not-a-file"),
        Request(method: "OPTIONS", url: "http://h/x?q=%E2%9C%93&r=[1]", headers: [HeaderField("Accept", "text/html"), HeaderField("User-Agent", "agent 'one'")]),
        Request(method: "POST", url: "http://h/x", headers: [HeaderField("Content-Type", "text/plain"), HeaderField("X-A", "1"), HeaderField("X-A", "2")], body: "100% \\ done\n\ttab"),
        ]
    }

    @Test(
        "a copied curl command makes the real curl send the request: method, URL, headers and body bytes",
        .enabled(if: CurlCapture.curlPath != nil, "curl is not installed: the real-curl comparison is skipped"),
        arguments: renderedRequests)
    func renderedCommandSendsTheRequest(_ request: Request) async throws {
        let command = RequestText.curlCommand(for: request)
        let sent = try await CurlCapture.run(command)
        #expect(sent.status == 0, "\(command): \(sent.stderr)")
        #expect(sent.method == request.method, "\(command)")
        #expect(sent.target == request.url, "\(command)")
        #expect(sent.headersWithoutCurlDefaults(keeping: request) == request.headers, "\(command)")
        #expect(sent.bodyBytes == request.body, "\(command)")
        #expect(try RequestText.parse(command) == request)
    }

    // MARK: Round trip

    static let urlPiece = Gen<String?>.element(of: ["a", "Z9", "-", ".", "_", "~", "%20", "%E2%9C%93", "é", "'", "\"", "$x", "(", ")", "[", "]", "{", "}", "!", "*", "+", ",", ";", "=", ":", "@", "&", "\\"])
        .map { $0 ?? "" }
    static let valuePiece = Gen<String?>.element(of: ["a", "é", "'", "\"", "$HOME", "`x`", "\\", "%", ";", ":", "a b", "☕", "-\t-", "!"])
        .map { $0 ?? "" }
    static let headerName = Gen<String?>.element(of: ["Accept", "Content-Type", "X-Custom", "Authorization", "Cookie", "User-Agent", "x-lower"])
        .map { (name: String?) -> String in name ?? "X" }
    static let headerValue = valuePiece.array(of: 0...4).map { (pieces: [String]) -> String in pieces.joined() }
    static let headerField = zip(headerName, headerValue).map { (name: String, value: String) -> HeaderField in HeaderField(name, value) }
    static let method = Gen<String?>.element(of: ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "get"])
        .map { (name: String?) -> String in name ?? "GET" }
    static let base = Gen<String?>.element(of: ["http://example.com", "https://api.example.com:8443", "http://127.0.0.1:8080"])
        .map { (base: String?) -> String in base ?? "http://h" }
    static let urlText = urlPiece.array(of: 0...6).map { (pieces: [String]) -> String in pieces.joined() }
    static let url = zip(base, urlText, Gen.bool, urlText)
        .map { (base: String, path: String, hasQuery: Bool, query: String) -> String in
            base + "/" + path + (hasQuery ? "?" + query : "")
        }
    static let body = Gen.uint8(in: 0...255).array(of: 0...24)
    static let request = zip(method, url, headerField.array(of: 0...4), body)
        .map { (method: String, url: String, headers: [HeaderField], body: [UInt8]) -> Request in
            Request(method: method, url: url, headers: headers, body: body)
        }

    @Test("parse(curlCommand(for: request)) is the request")
    func roundTrip() async {
        await propertyCheck(count: 500, input: Self.request) { request in
            let command = RequestText.curlCommand(for: request)
            do {
                #expect(try RequestText.parse(command) == request, "\(command)")
            } catch {
                Issue.record("\(command): \(error)")
            }
        }
    }
}

/// Runs a curl command line for real (with bash, through Python/capture_curl.py) against a one-request
/// capture server and reports what curl sent.
enum CurlCapture {
    /// The `curl` on the PATH, or `nil` when there is none.
    static let curlPath: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/curl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python/capture_curl.py")

    /// What curl sent, as the capture script reports it.
    struct Sent: Decodable {
        var method: String?
        var target: String?
        var headers: [[String]]?
        var body: String?
        var error: String?
        var status: Int
        var stderr: String

        var bodyBytes: [UInt8] { Array(Data(base64Encoded: body ?? "") ?? Data()) }

        var fields: [HeaderField] { (headers ?? []).compactMap { $0.count == 2 ? HeaderField($0[0], $0[1]) : nil } }

        /// The headers curl sent without those it adds itself and the request does not state: Host
        /// (unless stated), Content-Length, Proxy-Connection (the capture goes through a proxy),
        /// `User-Agent: curl/…` and `Accept: */*`.
        func headersWithoutCurlDefaults(keeping request: Request) -> [HeaderField] {
            fields.filter { field in
                let name = field.name.lowercased()
                if name == "proxy-connection" || name == "content-length" { return false }
                if request.headers.first(named: field.name) != nil { return true }
                return !(name == "host" || (name == "user-agent" && field.value.hasPrefix("curl/")) || (name == "accept" && field.value == "*/*"))
            }
        }

        /// Method, URL (percent escapes in upper case: curl 7.88 writes `-G` data's in lower case),
        /// headers sorted by name (their order among different names is curl's business), body.
        func comparable(ignoringDefaultsAbsentFrom request: Request) -> Comparable {
            Comparable(
                method: method ?? "(\(error ?? "nothing captured"); curl status \(status): \(stderr))",
                url: Self.upperCaseEscapes(target ?? ""),
                headers: Self.sorted(headersWithoutCurlDefaults(keeping: request)),
                body: bodyBytes)
        }

        static func comparable(_ request: Request) -> Comparable {
            Comparable(method: request.method, url: upperCaseEscapes(request.url), headers: sorted(request.headers), body: request.body)
        }

        struct Comparable: Equatable {
            var method: String
            var url: String
            var headers: [[String]]
            var body: [UInt8]
        }

        static func sorted(_ fields: [HeaderField]) -> [[String]] {
            fields.enumerated()
                .sorted { ($0.element.name.lowercased(), $0.offset) < ($1.element.name.lowercased(), $1.offset) }
                .map { [$0.element.name.lowercased(), $0.element.value] }
        }

        static func upperCaseEscapes(_ url: String) -> String {
            var bytes = Array(url.utf8)
            var index = 0
            while index + 2 < bytes.count {
                if bytes[index] == UInt8(ascii: "%") {
                    for offset in 1...2 where bytes[index + offset] >= UInt8(ascii: "a") && bytes[index + offset] <= UInt8(ascii: "f") {
                        bytes[index + offset] -= 0x20
                    }
                }
                index += 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static func run(_ commandLine: String) async throws -> Sent {
        let curl = try #require(curlPath)
        let run = try await ProcessRun.run("/usr/bin/env", ["python3", script.path, curl, commandLine])
        try #require(run.status == 0, "capture_curl.py failed: \(run.errors)")
        return try JSONDecoder().decode(Sent.self, from: Data(run.outputBytes))
    }
}
