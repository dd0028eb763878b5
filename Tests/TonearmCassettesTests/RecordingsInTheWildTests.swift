import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

/// Issue 20: cassettes written by other people's tools load, and replay what was recorded. Each fixture
/// reproduces the shape a tool writes; none is copied from a real file.
@Suite("Recordings in the wild")
struct RecordingsInTheWildTests {
    /// `{"items":[1,2,3]}` gzipped (mtime 0), split as Polly.JS splits a stream into base64 chunks.
    static let gzipChunks = ["H4sIAAAAAAACAw==", "q1bKLEnNLVayijbUMdIxjq0FAOq4KD0RAAAA"]
    static let gzipBytes: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 202, 44, 73, 205, 45, 86, 178, 138, 54, 212, 49, 210, 49, 142, 173, 5, 0, 234,
        184, 40, 61, 17, 0, 0, 0,
    ]

    @Test("An empty VCR cassette file (or one with only comments) is a cassette with no interactions", arguments: [
        "", "\n", "---\n", "# recorded nothing yet\n",
    ])
    func emptyVCRFile(content: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("empty.yml", content)
        #expect(try CassetteFormat.detect(folder.file("empty.yml")) == .vcr)
        #expect(try CassetteFile.load(folder.file("empty.yml")).cassette.entries.isEmpty)
        #expect(try CassetteFile.load(folder.file("empty.yml"), format: .vcr).cassette.entries.isEmpty)
    }

    @Test("vcrpy cassettes written under Python 2 keep headers as a list of !!python/tuple pairs; vcrpy before 1.0 as raw lines")
    func vcrpyHeaderLists() throws {
        let cassette = """
            interactions:
            - request:
                body: null
                headers: {}
                method: GET
                uri: http://a.example/
              response:
                body: {string: !!python/unicode 'hi'}
                headers:
                - !!python/tuple
                  - Set-Cookie
                  - [a=1, b=2]
                - !!python/tuple
                  - Content-Type
                  - [text/plain]
                - "X-Raw: yes\r\n"
                status: {code: 200, message: OK}
            version: 1

            """
        let folder = try TemporaryFolder()
        try folder.write("tuples.yaml", cassette)
        let track = try #require(try CassetteFile.load(folder.file("tuples.yaml")).cassette.tracks.first)
        #expect(track.response?.headers.map { [$0.name, $0.value] } == [["Set-Cookie", "a=1"], ["Set-Cookie", "b=2"], ["Content-Type", "text/plain"], ["X-Raw", "yes"]])
        #expect(track.response?.body == Array("hi".utf8))
    }

    @Test("vcrpy header values stored as !!binary (bytes, as boto3 records them) are decoded")
    func vcrpyBinaryHeaders() throws {
        let yaml = """
            interactions:
            - request:
                body: null
                headers:
                  User-Agent:
                  - !!binary |
                    Qm90bzMvMS4zNC4w
                  X-Amz-Date:
                  - !!binary |
                    MjAyNDAxMTlUMTE0MTA5Wg==
                method: GET
                uri: https://s3.example.com/bucket?list-type=2
              response:
                body:
                  string: '<ListBucketResult/>'
                headers:
                  Content-Type:
                  - application/xml
                  x-amz-request-id: !!binary |
                    QUJDMTIz
                status:
                  code: 200
                  message: OK
            version: 1

            """
        let imported = try VCRFormat.decode(Array(yaml.utf8), file: "boto3.yaml")
        let track = try #require(imported.cassette.tracks.first)
        #expect(track.request.headers.first(named: "User-Agent") == "Boto3/1.34.0")
        #expect(track.request.headers.first(named: "X-Amz-Date") == "20240119T114109Z")
        #expect(track.response?.headers.first(named: "x-amz-request-id") == "ABC123")
        #expect(track.response?.body == Array("<ListBucketResult/>".utf8))
    }

    @Test(
        "A cassette recorded by the real vcrpy (requests with bytes header values, gzip answer) loads and replays",
        .enabled(if: VCRPy.interpreter != nil, Comment(rawValue: VCRPy.missingMessage)), arguments: ["yaml", "json"])
    func realVCRPyCassette(serializer: String) async throws {
        let python = try #require(VCRPy.interpreter)
        let folder = try TemporaryFolder()
        let cassette = folder.file("buckets.\(serializer)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python/record_vcrpy_cassette.py")
        let run = try await ProcessRun.run(python, [script.path, cassette.path, serializer], environment: nil)
        #expect(run.status == 0, "\(run.errors)")
        let url = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
        if serializer == "yaml" {
            #expect(try String(contentsOf: cassette, encoding: .utf8).contains("!!binary"), "vcrpy wrote the bytes header values as !!binary")
        }
        #expect(try CassetteFormat.detect(cassette) == .vcr)
        let imported = try CassetteFile.load(cassette)
        let track = try #require(imported.cassette.tracks.first)
        #expect(track.request.headers.first(named: "User-Agent") == "Boto3/1.34.0")
        #expect(track.request.headers.first(named: "X-Amz-Date") == "20240119T114109Z")
        // vcrpy stores what requests handed it, decoded, and keeps the server's gzip header.
        let body = #"{"buckets":["logs","photos"]}"#
        #expect(track.response?.body == Array(body.utf8))
        #expect(track.response?.headers.first(named: "Content-Encoding") == nil)
        #expect(track.response?.headers.first(named: "Content-Length") == String(body.utf8.count))
        #expect(try imported.makeEngine().match(Request(url: url)).hit != nil, "the recorded request replays: \(url)")
    }

    /// A Polly.JS (node-http adapter) HAR entry: the body as a JSON array of base64 chunks, kept gzip.
    static func pollyHAR(chunks: String) -> String {
        """
        {"log": {"_recordingName": "items", "creator": {"name": "Polly.JS", "version": "6.0.6"}, "entries": [{
          "request": {"method": "GET", "url": "http://127.0.0.1:4000/items", "headers": [], "queryString": []},
          "response": {"status": 200, "headers": [
              {"name": "content-type", "value": "application/json"},
              {"name": "content-encoding", "value": "gzip"},
              {"name": "content-length", "value": "\(gzipBytes.count)"}],
            "content": {"mimeType": "application/json", "size": 17, "encoding": "base64", "text": \(chunks)}},
          "startedDateTime": "2024-01-19T11:41:09.123Z", "time": 4, "timings": {}}]}}
        """
    }

    @Test("Polly.JS HARs: content.text as a JSON array of base64 chunks is read; the gzip body keeps its Content-Encoding")
    func pollyChunks() throws {
        let asText = "\"" + "[\\\"" + Self.gzipChunks.joined(separator: "\\\",\\\"") + "\\\"]" + "\""
        let asArray = "[\"" + Self.gzipChunks.joined(separator: "\",\"") + "\"]"
        for chunks in [asText, asArray] {
            let folder = try TemporaryFolder()
            try folder.write("polly.har", Self.pollyHAR(chunks: chunks))
            let imported = try CassetteFile.load(folder.file("polly.har"))
            let response = try #require(imported.cassette.tracks.first?.response)
            #expect(response.body == Self.gzipBytes, "the chunks decoded and joined: \(chunks)")
            #expect(response.headers.first(named: "Content-Encoding") == "gzip", "the body is gzip, so the header describes it")
            #expect(imported.warnings.isEmpty)
        }
    }

    @Test("Polly.JS HARs from its node-fetch adapter keep header values as arrays: one header per element")
    func pollyArrayHeaderValues() throws {
        let har = """
            {"log": {"version": "1.2", "creator": {"name": "Polly.JS", "version": "2.6.3"}, "entries": [{
              "request": {"method": "GET", "url": "http://a.example/items", "httpVersion": "HTTP/1.1", "cookies": [], "queryString": [],
                "headers": [{"name": "accept", "value": ["*/*"]}, {"name": "x-many", "value": ["1", "2"]}], "headersSize": -1, "bodySize": 0},
              "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                "headers": [{"name": "set-cookie", "value": ["a=1", "b=2"]}], "content": {"mimeType": "text/plain", "size": 2, "text": "hi"},
                "redirectURL": "", "headersSize": -1, "bodySize": -1},
              "startedDateTime": "2019-01-19T11:41:09.123Z", "time": 1, "timings": {"send": 0, "wait": 1, "receive": 0}, "cache": {}}]}}
            """
        let folder = try TemporaryFolder()
        try folder.write("recording.har", har)
        let imported = try CassetteFile.load(folder.file("recording.har"))
        let track = try #require(imported.cassette.tracks.first)
        #expect(track.request.headers.values(named: "x-many") == ["1", "2"] && track.request.headers.first(named: "accept") == "*/*")
        #expect(track.response?.headers.values(named: "set-cookie") == ["a=1", "b=2"])
        #expect(try SelfReplay.failures(imported) == [])
    }

    @Test("A Content-Encoding the stored body is not in is dropped and Content-Length restated, in every format, and lint says so")
    func decodedBodyMarkedGzip() throws {
        let json = #"{"id":1,"name":"Ada"}"#
        let folder = try TemporaryFolder()
        // DVR and Vinyl store what URLSession handed over: decoded, the header kept.
        try folder.write("dvr.json", """
            {"name": "user", "interactions": [{"recorded_at": 1705664469, "request": {"method": "GET", "url": "https://api.example.com/user"},
              "response": {"status": 200, "url": "https://api.example.com/user", "headers": {"Content-Type": "application/json",
                "Content-Encoding": "gzip", "Content-Length": "33"}, "body": \(json)}}]}
            """)
        try folder.write("vcr.yml", """
            http_interactions:
            - request: {method: get, uri: "https://api.example.com/user", body: {encoding: UTF-8, string: ""}, headers: {}}
              response:
                status: {code: 200, message: OK}
                headers: {Content-Encoding: [br], Content-Length: ["33"]}
                body: {encoding: UTF-8, string: '\(json)'}
              recorded_at: Fri, 19 Jan 2024 11:41:09 GMT
            """)
        try folder.write("chrome.har", """
            {"log": {"entries": [{"request": {"method": "GET", "url": "https://api.example.com/user", "headers": []},
              "response": {"status": 200, "headers": [{"name": "content-encoding", "value": "gzip"}],
                "content": {"mimeType": "application/json", "text": \(String(reflecting: json))}}}]}}
            """)
        for file in ["dvr.json", "vcr.yml", "chrome.har"] {
            let imported = try CassetteFile.load(folder.file(file))
            let response = try #require(imported.cassette.tracks.first?.response, "\(file)")
            #expect(response.body == Array(json.utf8), "\(file)")
            #expect(response.headers.first(named: "Content-Encoding") == nil, "\(file)")
            let length = response.headers.first(named: "Content-Length")
            #expect(length == nil || length == String(json.utf8.count), "\(file)")
            let findings = CassetteLinter.lint(imported)
            #expect(findings.contains { $0.kind == .importWarning && $0.message.contains("not") && $0.message.contains("Content-Encoding") }, "\(file)")
            // The streamed loader (what the server and URLSession replay from) applies the same rule.
            let (engine, _) = try CassetteFile.loadEngine(folder.file(file))
            let hit = try #require(engine.match(Request(url: "https://api.example.com/user")).hit?.track.response)
            #expect(hit.headers.first(named: "Content-Encoding") == nil, "\(file)")
        }
    }

    @Test("Stub bundles name the plist stubRules.plist and answer from inline_response beside json_file (the file first, when the bundle has it)")
    func stubRulesAndInlineResponse() throws {
        let folder = try TemporaryFolder()
        let rules: [[String: Any]] = [
            ["matching_url": "/users/42", "json_file": "user", "http_method": "GET"],
            ["matching_url": "/status", "inline_response": #"{"ok":true}"#],
            ["matching_url": "/flags", "inline_response": ["dark": true]],
        ]
        let bundle = try StubBundleTests.makeBundle(in: folder, rules: rules, plistName: "stubRules.plist")
        #expect(try CassetteFormat.detect(bundle) == .stubBundle)
        let engine = try CassetteFile.load(bundle).makeEngine()
        #expect(engine.match(Request(url: "https://api.example.com/users/42")).hit?.track.response?.body == Array(#"{"id": 42, "name": "Ada"}"#.utf8))
        #expect(engine.match(Request(url: "https://api.example.com/status")).hit?.track.response?.body == Array(#"{"ok":true}"#.utf8))
        #expect(engine.match(Request(url: "https://api.example.com/flags")).hit?.track.response?.body == Array(#"{"dark":true}"#.utf8))
        // Bundles in the wild write both, inline_response empty: the file answers when the bundle has
        // it, else the inline response, as the stubbing code they come from does.
        let both: [[String: Any]] = [
            ["matching_url": "/x", "json_file": "user", "inline_response": ""],
            ["matching_url": "/y", "json_file": "missing", "inline_response": "inline"],
        ]
        let other = try TemporaryFolder()
        let bothEngine = try CassetteFile.load(try StubBundleTests.makeBundle(in: other, rules: both, plistName: "stubRules.plist")).makeEngine()
        #expect(bothEngine.match(Request(url: "https://api.example.com/x")).hit?.track.response?.body == Array(#"{"id": 42, "name": "Ada"}"#.utf8))
        #expect(bothEngine.match(Request(url: "https://api.example.com/y")).hit?.track.response?.body == Array("inline".utf8))
    }

    @Test("A WireMock root folder (mappings/ + __files/) is read as WireMock, bodies from __files, not as file-name rules")
    func wireMockRoot() throws {
        let folder = try TemporaryFolder()
        let root = try folder.makeWireMockRoot()
        #expect(try CassetteFormat.detect(root) == .wiremock)
        let imported = try CassetteFile.load(root)
        #expect(imported.cassette.entries.count + imported.rules.count == 2, "one per mapping, none per __files body")
        let engine = try imported.makeEngine()
        #expect(engine.match(Request(url: "http://127.0.0.1:8080/users/42")).hit?.track.response?.body == Array(#"{"id":42}"#.utf8))
        #expect(engine.match(Request(url: "http://127.0.0.1:8080/search/ada")).hit?.track.response?.status == 204)
    }

    @Test("A WireMock equalToJson with source: file compares the request body with the JSON in __files")
    func wireMockBodyPatternFromFile() throws {
        let folder = try TemporaryFolder()
        let root = try folder.makeWireMockRoot()
        try folder.write("wm/__files/order.json", #"{"sku": "A1", "qty": 2}"#)
        try folder.write("wm/mappings/order.json", """
            {"request": {"method": "POST", "url": "/orders", "bodyPatterns": [{"equalToJson": "order.json", "source": "file"}]},
             "response": {"status": 201}}
            """)
        let imported = try CassetteFile.load(root)
        #expect(imported.warnings.isEmpty, "\(imported.warnings)")
        let engine = try imported.makeEngine()
        let order = Request(method: "POST", url: "http://127.0.0.1:8080/orders", headers: [HeaderField("Content-Type", "application/json")],
                            body: Array(#"{"qty":2,"sku":"A1"}"#.utf8))
        #expect(engine.match(order).hit?.track.response?.status == 201)
        var other = order
        other.body = Array(#"{"qty":3,"sku":"A1"}"#.utf8)
        #expect(engine.match(other).hit == nil)
    }

    @Test("A stub-folder file named with three or more words loads, matches, and lints clean", arguments: [
        "GET-api-v1-items.json", "001-GET-api-v1-items-archived.json", "api_v2_users_me_settings.json",
    ])
    func manyWordFileNames(name: String) throws {
        let folder = try TemporaryFolder()
        try folder.write(name, #"{"items":[]}"#)
        let imported = try CassetteFile.load(folder.url)
        let engine = try imported.makeEngine()
        let path = name.replacingOccurrences(of: "001-", with: "").replacingOccurrences(of: "GET-", with: "")
            .replacingOccurrences(of: ".json", with: "").split { $0 == "-" || $0 == "_" }.joined(separator: "/")
        #expect(engine.match(Request(url: "https://api.example.com/\(path)")).hit != nil, "\(path)")
        #expect(CassetteLinter.lint(imported).isEmpty)
    }

    @Test("lint runs the checks loading runs: a rule the engine refuses is a finding")
    func lintRefusesWhatLoadingRefuses() throws {
        let imported = CassetteImport(cassette: Cassette(), rules: [
            Rule(name: "look-behind", pattern: "(?<=a)b", response: Response(status: 200)),
        ])
        #expect(throws: RuleError.self) { try imported.makeEngine() }
        let findings = CassetteLinter.lint(imported)
        #expect(findings.contains { $0.kind == .refusedRule && $0.subject.contains("look-behind") })
    }

    @Test("VCR and vcrpy JSON-serializer cassettes and VCR 1.x files (Ruby 1.8's symbol keys, untagged lists, the betas' request_signature) are detected by content and load", arguments: [
        ("ruby.json", #"{"http_interactions": [{"request": {"method": "get", "uri": "https://a.example/x", "body": {"encoding": "UTF-8", "string": ""}, "headers": {}}, "response": {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"encoding": "UTF-8", "string": "hi"}}, "recorded_at": "Fri, 19 Jan 2024 11:41:09 GMT"}], "recorded_with": "VCR 6.2.0"}"#),
        ("python.json", #"{"interactions": [{"request": {"body": null, "headers": {}, "method": "GET", "uri": "https://a.example/x"}, "response": {"body": {"string": "hi"}, "headers": {}, "status": {"code": 200, "message": "OK"}}}], "version": 1}"#),
        ("vcr1.yml", """
            ---
            - !ruby/struct:VCR::HTTPInteraction
              request: !ruby/struct:VCR::Request
                method: :get
                uri: https://a.example:443/x
                body:
                headers:
              response: !ruby/struct:VCR::Response
                status: !ruby/struct:VCR::ResponseStatus
                  code: 200
                  message: OK
                headers:
                  content-type:
                  - text/plain
                body: hi
                http_version: "1.1"

            """),
        // VCR 1.x under Ruby 1.8, whose YAML wrote the structs' members as symbols.
        ("vcr1-ruby18.yml", """
            ---\u{20}
            - !ruby/struct:VCR::HTTPInteraction\u{20}
              :request: !ruby/struct:VCR::Request\u{20}
                :method: :get
                :uri: http://a.example:80/x
                :body:\u{20}
                :headers:\u{20}
              :response: !ruby/struct:VCR::Response\u{20}
                :status: !ruby/struct:VCR::ResponseStatus\u{20}
                  :code: 200
                  :message: OK
                :headers:\u{20}
                  content-type:\u{20}
                  - text/plain
                :body: hi
                :http_version: "1.1"

            """),
        // VCR 1.0's betas named the request its signature.
        ("vcr1-beta.yml", """
            ---
            - !ruby/struct:VCR::HTTPInteraction
              request_signature: !ruby/struct:VCR::RequestSignature
                method: :get
                uri: http://a.example:80/x
                body:
                headers:
              response: !ruby/struct:VCR::Response
                status: !ruby/struct:VCR::ResponseStatus
                  code: 200
                  message: OK
                headers:
                  content-type: text/plain
                body: hi
                http_version: "1.1"

            """),
        // VCR 1.x fixtures written without the struct tags.
        ("vcr1-untagged.yml", """
            ---
            - request:
                method: get
                uri: http://a.example/x
                body: ""
                headers: {}
              response:
                status:
                  code: 200
                  message: OK
                headers:
                  Content-Type:
                  - text/plain
                body: hi
                http_version: "1.1"

            """),
    ])
    func detectionByContent(file: String, content: String) throws {
        let folder = try TemporaryFolder()
        try folder.write(file, content)
        #expect(try CassetteFormat.detect(folder.file(file)) == .vcr)
        let track = try #require(try CassetteFile.load(folder.file(file)).cassette.tracks.first)
        #expect(track.request.method == "GET")
        #expect(track.response?.body == Array("hi".utf8))
    }

    @Test("VCR 0.x and pre-1.0 vcrpy lists, which their own tools migrate rather than read, are refused saying so", arguments: [
        ("vcr0.yml", """
            ---
            - !ruby/struct:VCR::RecordedResponse
              method: :get
              uri: http://a.example:80/
              response: !ruby/object:Net::HTTPOK
                body: hi
                code: "200"

            """, "VCR 0.x"),
        ("vcrpy0.yaml", """
            - request: !!python/object:vcr.request.Request
                body: null
                host: a.example
                method: GET
                port: 80
                url: /
              response:
                body: {string: hi}
                headers: ["Server: x\r\n"]
                status: {code: 200, message: OK}

            """, "vcr.migration"),
    ])
    func formatsBeforeOne(file: String, content: String, says: String) throws {
        let folder = try TemporaryFolder()
        try folder.write(file, content)
        #expect(try CassetteFormat.detect(folder.file(file)) == .vcr)
        let error = try #require(throws: CassetteError.self) { try CassetteFile.load(folder.file(file)) }
        #expect(error.expected.contains(says), "\(error)")
    }

    @Test("JSON that no format fits is an error naming each format tried and what it looks for")
    func nothingFits() throws {
        let folder = try TemporaryFolder()
        try folder.write("n.json", #"{"something": "else"}"#)
        let error = try #require(throws: CassetteError.self) { try CassetteFile.load(folder.file("n.json")) }
        for format in CassetteFormat.all where format != .stubs && format != .stubBundle {
            #expect(error.expected.contains("\(format.name) ("), "\(format.name)")
        }
        #expect(error.expected.contains("formatVersion") && error.expected.contains("interactions"))
        #expect(error.found == #"a JSON object with members "something""#)
    }

    @Test("YAML that is neither VCR nor rules is an error naming the formats tried, not an unknown member of \"rule 1\"")
    func yamlNothingFits() throws {
        let folder = try TemporaryFolder()
        try folder.write("tape.yaml", "name: checkout\ntapes:\n- request: {method: GET}\n")
        let error = try #require(throws: CassetteError.self) { try CassetteFile.load(folder.file("tape.yaml")) }
        #expect(error.expected.contains("vcr (") && error.expected.contains("rules ("))
        #expect(error.found == #"YAML with top-level members "name", "tapes""#)
        try folder.write("rules.yaml", "# team stubs\nrules:\n- url: https://a.example/x\n  response: {status: 204}\n")
        #expect(try CassetteFormat.detect(folder.file("rules.yaml")) == .rules)
    }

    @Test("A member the VCR reader does not know that carries data (vcrpy's parsed_body) is a lint warning")
    func unreadDataIsWarned() throws {
        let yaml = """
            interactions:
            - request:
                body: null
                parsed_body: {name: Ada}
                headers: {Content-Type: [application/json]}
                method: POST
                uri: https://api.example.com/users
              response:
                body: {string: created}
                headers: {}
                status: {code: 201, message: Created}
                empty_extra: null
            version: 1

            """
        let imported = try VCRFormat.decode(Array(yaml.utf8), file: "custom.yaml")
        let findings = CassetteLinter.lint(imported)
        let unread = findings.filter { $0.kind == .importWarning && $0.message.contains("parsed_body") }
        #expect(unread.count == 1)
        #expect(unread.first?.subject == "$.interactions[0].request.parsed_body")
        #expect(!findings.contains { $0.message.contains("empty_extra") }, "a member holding nothing loses nothing")
    }
}

/// The Python interpreter of `.build/python-venv` (which `.ci/run` creates) when it has vcrpy and
/// requests, to record real vcrpy cassettes.
enum VCRPy {
    static let interpreter: String? = {
        let venv = packageRoot.appendingPathComponent(".build/python-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: venv),
            let check = try? ProcessRun.runBlocking(venv, ["-c", "import vcr, requests"], environment: nil), check.status == 0
        else { return nil }
        return venv
    }()

    static let missingMessage = "no Python with vcrpy: .ci/run creates .build/python-venv with it (pip install vcrpy requests)"
}
