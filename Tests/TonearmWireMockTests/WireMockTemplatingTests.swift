import Foundation
import Testing
import Tonearm
import TonearmReplay
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// WireMock's `response-template` transformer, `statusMessage` and `delayDistribution`, through a real
/// server and client: what a WireMock user's mappings rely on.
@Suite("WireMock response templating and settings")
struct WireMockTemplatingTests {
    /// A server with local templating (global with `global`), escaping as WireMock 2.35 does
    /// (`--wiremock-version 2 --local-response-templating`) or as 3.x does (`--wiremock-version 3`, without).
    private static func start(global: Bool = false, root: URL? = nil, escaping: Bool = true) async throws -> TonearmServer {
        var configuration = quietConfiguration()
        configuration.wireMock.version = escaping ? .v2 : .v3
        configuration.wireMock.responseTemplating = global ? .global : .local
        configuration.wireMock.rootDirectory = root
        return try await TonearmServer.start(configuration)
    }

    private static func add(_ server: TonearmServer, _ mapping: String) async throws -> ClientResponse {
        try await TestClient.send(server.baseURL.absoluteString + "/__admin/mappings", method: "POST", body: mapping)
    }

    @Test("a templated body and headers answer from the request: path, query, headers, cookies, JSON body")
    func rendersTheRequestModel() async throws {
        let server = try await Self.start()
        let created = try await Self.add(server, #"""
            {"request": {"method": "POST", "urlPathPattern": "/orders/.*"},
             "response": {"status": 201, "transformers": ["response-template"],
               "headers": {"Location": "/orders/{{request.pathSegments.[1]}}", "X-Trace": "{{request.headers.x-trace}}"},
               "jsonBody": {"id": "{{request.pathSegments.[1]}}", "name": "{{jsonPath request.body '$.customer.name'}}",
                            "page": "{{request.query.page}}", "session": "{{request.cookies.session}}"}}}
            """#)
        #expect(created.status == 201, "\(created.text)")
        let answer = try await TestClient.send(
            server.baseURL.absoluteString + "/orders/42?page=3", method: "POST",
            headers: [("X-Trace", "t-1"), ("Cookie", "session=s9"), ("Content-Type", "application/json")],
            body: #"{"customer": {"name": "Ada"}}"#)
        #expect(answer.status == 201)
        #expect(answer.text == #"{"id":"42","name":"Ada","page":"3","session":"s9"}"#)
        #expect(answer.headers.first(named: "Location") == "/orders/42")
        #expect(answer.headers.first(named: "X-Trace") == "t-1")
        try await server.stop()
    }

    @Test("helpers: conditionals, each, math, regexExtract, base64, urlEncode, escaping as Handlebars does")
    func helpers() async throws {
        let server = try await Self.start()
        let template = #"{{#if request.query.vip}}VIP{{else}}std{{/if}}|{{#each request.query.n}}{{this}}{{#unless @last}},{{/unless}}{{/each}}|{{math 7 '/' 2}}|{{regexExtract request.query.s '[0-9]+'}}|{{base64 'hi'}}|{{{base64 'hi'}}}|{{urlEncode 'a b'}}|{{upper (trim '  x ')}}|{{size request.query.n}}"#
        let mapping = try JSONSerialization.data(withJSONObject: [
            "request": ["method": "GET", "urlPath": "/h"],
            "response": ["body": template, "transformers": ["response-template"]],
        ])
        #expect(try await Self.add(server, String(decoding: mapping, as: UTF8.self)).status == 201)
        let answer = try await TestClient.send(server.baseURL.absoluteString + "/h?n=1&n=2&s=ab12")
        #expect(answer.text == "std|1,2|4|12|aGk&#x3D;|aGk=|a+b|X|2")
        try await server.stop()
    }

    @Test("a broken template is refused when the mapping is added, with its line and column")
    func brokenTemplateRefusedAtLoad() async throws {
        let server = try await Self.start()
        for (body, place) in [
            (#"ok\n{{#if request.path}}never closed"#, "line 2"),
            (#"{{noSuchHelper 1}}"#, "line 1, column 1"),
            (#"{{jsonPath request.body '$.items[?(@.x'}}"#, "line 1"),
        ] {
            let refused = try await Self.add(server, #"{"request": {"url": "/b"}, "response": {"body": "\#(body)", "transformers": ["response-template"]}}"#)
            #expect(refused.status == 422, "\(body): \(refused.text)")
            #expect(refused.text.contains(place), "\(body): \(refused.text)")
            #expect(refused.text.contains("/response/body"), "\(refused.text)")
        }
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/b").status == 404)
        try await server.stop()
    }

    @Test("without the transformer a body is sent as written; with --global-response-templating every mapping renders")
    func globalTemplating() async throws {
        let mapping = #"{"request": {"url": "/g"}, "response": {"body": "at {{request.path}}"}}"#
        let plain = try await Self.start()
        #expect(try await Self.add(plain, mapping).status == 201)
        #expect(try await TestClient.send(plain.baseURL.absoluteString + "/g").text == "at {{request.path}}")
        try await plain.stop()

        // Mappings loaded from --root-dir are templates too.
        let folder = try TemporaryFolder()
        let mappings = folder.url.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(#"{"request": {"url": "/from-file"}, "response": {"body": "file at {{request.path}}"}}"#.utf8)
            .write(to: mappings.appendingPathComponent("file.json"))
        let global = try await Self.start(global: true, root: folder.url)
        #expect(try await Self.add(global, mapping).status == 201)
        #expect(try await TestClient.send(global.baseURL.absoluteString + "/g").text == "at /g")
        #expect(try await TestClient.send(global.baseURL.absoluteString + "/from-file").text == "file at /from-file")
        try await global.stop()
    }

    @Test("a bodyFileName's content is rendered; a base64Body is not")
    func bodyFileRendered() async throws {
        let folder = try TemporaryFolder()
        let files = folder.url.appendingPathComponent("__files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data("hello {{request.query.who}}".utf8).write(to: files.appendingPathComponent("greeting.txt"))
        let server = try await Self.start(root: folder.url)
        #expect(try await Self.add(server, #"{"request": {"urlPath": "/f"}, "response": {"bodyFileName": "greeting.txt", "transformers": ["response-template"]}}"#).status == 201)
        #expect(try await Self.add(server, #"{"request": {"urlPath": "/b64"}, "response": {"base64Body": "e3tyZXF1ZXN0LnBhdGh9fQ==", "transformers": ["response-template"]}}"#).status == 201)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/f?who=ada").text == "hello ada")
        // A file name that is itself a template: the file is chosen per request, never outside __files.
        #expect(try await Self.add(server, #"{"request": {"urlPathPattern": "/by-name/.*"}, "response": {"bodyFileName": "{{request.pathSegments.[1]}}", "transformers": ["response-template"]}}"#).status == 201)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/by-name/greeting.txt?who=bob").text == "hello bob")
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/by-name/missing.txt").status == 500)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/by-name/..%2F..%2Fetc%2Fpasswd").status == 500)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/b64").text == "{{request.path}}")
        try await server.stop()
    }

    @Test("a template cannot grow an answer without bound: the rendering stops at its limit and the answer is a 500")
    func renderingIsBounded() async throws {
        let server = try await Self.start()
        // Nested loops over a large query: quadratic work, stopped by the step limit.
        let loops = #"{{#each request.query.a}}{{#each ../request.query.a}}{{#each ../../request.query.a}}x{{/each}}{{/each}}{{/each}}"#
        #expect(try await Self.add(server, #"{"request": {"urlPath": "/loop"}, "response": {"body": "\#(loops)", "transformers": ["response-template"]}}"#).status == 201)
        let query = (0..<200).map { "a=\($0)" }.joined(separator: "&")
        let looped = try await TestClient.send(server.baseURL.absoluteString + "/loop?" + query)
        #expect(looped.status == 500)
        #expect(looped.text.contains("steps"), "\(looped.text)")
        #expect(try await Self.add(server, #"{"request": {"urlPath": "/big"}, "response": {"body": "{{randomValue length=100000000}}", "transformers": ["response-template"]}}"#).status == 201)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/big").status == 500)
        // An offset no calendar can add is ignored rather than trapping the conversion to epoch milliseconds.
        #expect(try await Self.add(server, #"{"request": {"urlPath": "/far"}, "response": {"body": "{{now offset='999999999999 years' format='epoch'}}", "transformers": ["response-template"]}}"#).status == 201)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/far").status == 200)
        // The server keeps serving.
        #expect(try await Self.add(server, #"{"request": {"urlPath": "/ok"}, "response": {"body": "fine"}}"#).status == 201)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/ok").text == "fine")
        try await server.stop()
    }

    @Test("statusMessage is sent as the reason phrase of the status line; one that could split the line is refused")
    func statusMessage() async throws {
        let server = try await Self.start()
        #expect(try await Self.add(server, #"{"request": {"url": "/tea"}, "response": {"status": 418, "statusMessage": "Short and stout", "body": "t"}}"#).status == 201)
        let connection = try RawConnection(port: server.port)
        connection.send("GET /tea HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = try await connection.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 418 Short and stout\r\n"), "\(answer)")
        let refused = try await Self.add(server, #"{"request": {"url": "/x"}, "response": {"statusMessage": "OK\r\nX-Injected: 1"}}"#)
        #expect(refused.status == 422, "\(refused.text)")
        try await server.stop()
    }

    @Test("delayDistribution: a uniform delay is waited out; unknown members and types are refused as WireMock refuses them")
    func delayDistribution() async throws {
        let server = try await Self.start()
        #expect(try await Self.add(server, #"{"request": {"url": "/slow"}, "response": {"body": "s", "delayDistribution": {"type": "uniform", "lower": 150, "upper": 200}}}"#).status == 201)
        let started = ContinuousClock.now
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/slow").text == "s")
        #expect(ContinuousClock.now - started >= .milliseconds(150))
        #expect(try await Self.add(server, #"{"request": {"url": "/ln"}, "response": {"delayDistribution": {"type": "lognormal", "median": 5, "sigma": 0.1}}}"#).status == 201)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/ln").status == 200)
        for distribution in [#"{"type": "lognormal", "median": 5, "sigma": 0.1, "maxValue": 9}"#, #"{"type": "gaussian"}"#, #"{"type": "uniform", "lower": 9, "upper": 1}"#] {
            let refused = try await Self.add(server, #"{"request": {"url": "/r"}, "response": {"delayDistribution": \#(distribution)}}"#)
            #expect(refused.status == 422, "\(distribution): \(refused.text)")
        }
        try await server.stop()
    }

    @Test("chunkedDribbleDelay: the head comes at once, the body in parts over the total duration, and the connection serves on")
    func chunkedDribble() async throws {
        let server = try await Self.start()
        #expect(try await Self.add(server, #"{"request": {"url": "/drip"}, "response": {"body": "abcdefghij", "chunkedDribbleDelay": {"numberOfChunks": 5, "totalDuration": 1500}}}"#).status == 201)
        #expect(try await Self.add(server, #"{"request": {"url": "/after"}, "response": {"body": "next"}}"#).status == 201)
        let connection = try RawConnection(port: server.port)
        let started = ContinuousClock.now
        // Two requests on one connection: the second is answered once the first's body is all written.
        connection.send("GET /drip HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /after HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let head = try await connection.read(until: "\r\n\r\n")
        #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
        // 300 ms between parts: only a reader stalled for more than a second would see the body whole.
        #expect(!head.contains("abcdefghij"), "the head waited for the whole body: \(head)")
        let rest = try await connection.readToEnd()
        #expect(ContinuousClock.now - started >= .milliseconds(1500))
        #expect((head + rest).contains("abcdefghij"), "\(head + rest)")
        // The second stub's answer comes chunked, as WireMock sends one that sets no Content-Length.
        #expect(rest.hasSuffix("\r\n4\r\nnext\r\n0\r\n\r\n"), "\(rest)")
        let refused = try await Self.add(server, #"{"request": {"url": "/r"}, "response": {"chunkedDribbleDelay": {"numberOfChunks": 0, "totalDuration": 10}}}"#)
        #expect(refused.status == 422, "\(refused.text)")
        try await server.stop()
    }

    @Test("proxyBaseUrl: the request goes on to the mapping's upstream with its path, query and the additional headers, and its answer comes back")
    func proxyBaseUrl() async throws {
        let upstream = try await TestUpstream { request in
            Response(status: 203, headers: [HeaderField("X-Up", "1")], body: Array("\(request.method) \(request.url) \(request.headers.first(named: "X-Extra") ?? "-")".utf8))
        }
        let server = try await Self.start()
        let created = try await Self.add(server, #"{"request": {"urlPathPattern": "/api/.*"}, "response": {"proxyBaseUrl": "\#(upstream.origin)/base/", "additionalProxyRequestHeaders": {"X-Extra": "set"}}}"#)
        #expect(created.status == 201, "\(created.text)")
        let answer = try await TestClient.send(server.baseURL.absoluteString + "/api/items?x=1", headers: [("X-Extra", "from client")])
        #expect(answer.status == 203)
        #expect(answer.text == "GET /base/api/items?x=1 set")
        #expect(answer.headers.first(named: "X-Up") == "1")
        // As WireMock: a proxied answer is the upstream's, without this server's naming headers.
        #expect(answer.headers.first(named: "Matched-Stub-Id") == nil)
        try await upstream.stop()
        let down = try await TestClient.send(server.baseURL.absoluteString + "/api/gone")
        #expect(down.status == 502, "\(down.text)")
        #expect(try await Self.add(server, #"{"request": {"url": "/f"}, "response": {"proxyBaseUrl": "file:///etc"}}"#).status == 422)
        try await server.stop()
    }

    @Test("WireMock 3's JSON helpers in a mapping: as 3.x (--wiremock-version 3) the answer is the JSON they write; as 2.35 (--wiremock-version 2) escaped, as it would send it")
    func wireMock3Helpers() async throws {
        let mapping = #"""
            {"request": {"method": "POST", "url": "/users"},
             "response": {"status": 201, "transformers": ["response-template"],
               "body": "{{jsonMerge request.body '{\"id\":7,\"password\":null}' removeNulls=true}}"}}
            """#
        for escaping in [false, true] {
            let server = try await Self.start(escaping: escaping)
            let created = try await Self.add(server, mapping)
            #expect(created.status == 201, "\(created.text)")
            let answer = try await TestClient.send(
                server.baseURL.absoluteString + "/users", method: "POST", headers: [("Content-Type", "application/json")],
                body: #"{"name":"Ada","password":"s3cret"}"#)
            try await server.stop()
            #expect(answer.status == 201)
            #expect(answer.text == (escaping ? "{&quot;name&quot;:&quot;Ada&quot;,&quot;id&quot;:7}" : #"{"name":"Ada","id":7}"#), "\(answer.text)")
        }
    }

    @Test("the version picks the templating default: 3.x templates a mapping naming response-template, 2.35 none unless asked; --disable-response-templating renders none, --global-response-templating all")
    func templatingDefaults() async throws {
        let named = #"{"request": {"urlPath": "/n"}, "response": {"body": "at {{request.path}} & {{request.query.q}}", "transformers": ["response-template"]}}"#
        let unnamed = #"{"request": {"url": "/u"}, "response": {"body": "at {{request.path}}"}}"#
        let cases: [(ServerConfiguration.WireMock.Version, ServerConfiguration.WireMock.ResponseTemplating?, named: String, unnamed: String)] = [
            (.v3, nil, "at /n & a&b", "at {{request.path}}"),
            (.v2, nil, "at {{request.path}} & {{request.query.q}}", "at {{request.path}}"),
            (.v2, .local, "at /n & a&amp;b", "at {{request.path}}"),
            (.v3, .off, "at {{request.path}} & {{request.query.q}}", "at {{request.path}}"),
            (.v3, .global, "at /n & a&b", "at /u"),
        ]
        for (version, templating, expectedNamed, expectedUnnamed) in cases {
            var configuration = quietConfiguration()
            configuration.wireMock.version = version
            configuration.wireMock.responseTemplating = templating
            let server = try await TonearmServer.start(configuration)
            #expect(try await Self.add(server, named).status == 201)
            #expect(try await Self.add(server, unnamed).status == 201)
            let namedAnswer = try await TestClient.send(server.baseURL.absoluteString + "/n?q=a%26b").text
            let unnamedAnswer = try await TestClient.send(server.baseURL.absoluteString + "/u").text
            try await server.stop()
            #expect(namedAnswer == expectedNamed, "\(version) \(templating?.description ?? "default")")
            #expect(unnamedAnswer == expectedUnnamed, "\(version) \(templating?.description ?? "default")")
        }
    }
}
