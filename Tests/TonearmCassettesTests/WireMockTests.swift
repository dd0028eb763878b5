import Foundation
import Testing
import TonearmTestSupport
import Tonearm
@testable import TonearmCassettes

/// WireMock mappings: exact stubs become tracks, pattern stubs become anchored regex rules, and every
/// unsupported feature is reported against its mapping.
@Suite("WireMock mappings", .enabled(if: Conformance.isAvailable, Conformance.skipMessage))
struct WireMockTests {
    /// For each mapping file: requests a client would send, and the rule (by name) or track that must answer.
    static let samples: [String: [(request: Request, answer: String)]] = [
        "scc-body-matches-equaltojson.json": [
            (Request(method: "POST", url: "/body", headers: [HeaderField("Content-Type", "application/json")],
                     body: "{ \"things\": [ { \"name\" : \"RequiredThing\" } ] }"), "scc-body-matches-equaltojson[0]"),
        ],
        "scc-shouldMarkClientAsFraud.json": [
            (Request(method: "PUT", url: "http://localhost:8080/fraudcheck",
                     headers: [HeaderField("Content-Type", "application/vnd.fraud.v1+json")], body: "{\"clientId\":\"1234567890\",\"loanAmount\":99999}"),
             "6655794c-a651-4b71-a2b9-b7dc7e1c273f"),
        ],
        "scc-url-matches.json": [(Request(url: "/123/hello-url-matcher/"), "scc-url-matches[0]")],
        "scc-url-path-pattern.json": [(Request(url: "/42/url-path-pattern/?any=thing"), "scc-url-path-pattern[0]")],
        "wiremock-docker-random-user.json": [
            (Request(url: "/user"), "wiremock-docker-random-user[0]"),
            (Request(url: "/user?pretty=true"), "wiremock-docker-random-user[1]"),
        ],
        "wiremock-with-several-mappings-in-one-file.json": [
            (Request(url: "/todo/items"), "track 0"),
            (Request(method: "POST", url: "/todo/items", body: "Cancel newspaper subscription"), "wiremock-with-several-mappings-in-one-file[1]"),
            (Request(url: "/todo/items"), "track 1"),
        ],
    ]

    /// Whether the core's JSON parser is the real one (not a stand-in): `equalToJson` rules need it.
    static let coreParsesJSON: Bool = {
        guard case .object(let members)? = try? JSONValue(parsing: Array(#"{"a":1}"#.utf8)) else { return false }
        return members.count == 1
    }()

    static let files = Conformance.files(in: "wiremock/mappings", withExtensions: ["json"])

    @Test("every mapping file imports, and its tracks and rules answer their own requests", arguments: files)
    func selfReplay(_ path: String) throws {
        let imported = try WireMockFormat.load(contentsOf: Conformance.url(path))
        #expect(try SelfReplay.failures(imported) == [])
        let name = URL(fileURLWithPath: path).lastPathComponent
        let samples = try #require(Self.samples[name], "add sample requests for \(name)")
        let engine = try imported.makeEngine(strategy: .uniquePlay)
        for (request, answer) in samples {
            if answer == "scc-body-matches-equaltojson[0]" && !Self.coreParsesJSON { continue }  // needs the core's JSON parser
            let result = engine.match(request)
            switch result.hit?.source {
            case .track(let position)?: #expect("track \(position)" == answer, "\(request.url)")
            case .rule(let ruleName, _)?: #expect(ruleName == answer, "\(request.url)")
            default: Issue.record("\(name): \(request.method) \(request.url) missed:\n\(result.missReport?.description ?? "")")
            }
        }
    }

    @Test("patterns become anchored regex rules; exact mappings become tracks")
    func shapes() throws {
        let pathPattern = try WireMockFormat.load(contentsOf: Conformance.url("wiremock/mappings/scc-url-path-pattern.json"))
        #expect(pathPattern.cassette.entries.isEmpty)
        #expect(pathPattern.rules.map(\.pattern) == ["^(?:/([0-9]+)/url-path-pattern/)$"])
        #expect(pathPattern.rules.first?.target == .path)
        // urlPath matches any query, so even a fully specified urlPath mapping is a rule.
        let body = try WireMockFormat.load(contentsOf: Conformance.url("wiremock/mappings/scc-body-matches-equaltojson.json"))
        #expect(body.cassette.entries.isEmpty)
        #expect(body.rules.map(\.pattern) == ["^(?:/body)$"])
        #expect(body.rules.first?.body.count == 1)
        let exact = try WireMockFormat.load(contentsOf: Conformance.url("wiremock/mappings/wiremock-with-several-mappings-in-one-file.json"))
        #expect(exact.cassette.tracks.map(\.request.url) == ["/todo/items", "/todo/items"])
        #expect(exact.cassette.tracks.first?.response?.body == Array("<items><item>Buy milk</item></items>".utf8))
    }

    @Test("unsupported features are reported per mapping, never dropped silently")
    func warnings() throws {
        let fraud = try WireMockFormat.load(contentsOf: Conformance.url("wiremock/mappings/scc-shouldMarkClientAsFraud.json"))
        let messages = fraud.warnings.map(\.description)
        // JSONPath filters are conditions now: only templating is left to report.
        #expect(!messages.contains { $0.contains("bodyPatterns") })
        #expect(fraud.rules.first?.body.compactMap(\.location.jsonPath?.text) == [
            "$[?(@.['clientId'] =~ /[0-9]{10}/)]", "$[?(@.['loanAmount'] == 99999)]",
        ])
        #expect(messages.contains { $0.contains("transformers") })
        let several = try WireMockFormat.load(contentsOf: Conformance.url("wiremock/mappings/wiremock-with-several-mappings-in-one-file.json"))
        // Body `contains` is a condition now, not a warning.
        #expect(!several.warnings.contains { $0.path == "$.mappings[1].request.bodyPatterns[0]" })
        #expect(several.rules.first?.body == [BodyCondition(.wholeBody, .contains("Cancel newspaper subscription"))])
        #expect(several.warnings.contains { $0.path == "$.mappings[2].response" && $0.message.contains("body.xml") })
        #expect(several.cassette.tracks.map(\.scenario?.name) == ["To do list", "To do list"])
        #expect(!several.warnings.contains { $0.message.contains("scenario") }, "scenarios are enforced, not reported")
    }

    @Test("faults become transport errors and delays are kept")
    func faultsAndDelays() throws {
        let json = """
            {"mappings": [
              {"request": {"method": "GET", "url": "/slow"}, "response": {"status": 200, "fixedDelayMilliseconds": 250}},
              {"request": {"method": "GET", "url": "/reset"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}}
            ]}
            """
        let imported = try WireMockFormat.decode(Array(json.utf8), file: "inline.json")
        #expect(imported.cassette.tracks[0].delay == .milliseconds(250))
        #expect(imported.cassette.tracks[1].outcome == .transportError(.connectionReset))
    }

    @Test("a regex Swift cannot compile is an error naming the mapping")
    func badRegex() throws {
        let json = #"{"request": {"urlPathPattern": "/(unclosed"}, "response": {"status": 200}}"#
        let error = try #require(throws: CassetteError.self) { try WireMockFormat.decode(Array(json.utf8), file: "bad.json") }
        #expect(error.path == "$.request.urlPathPattern")
        #expect(error.description.contains("/(unclosed"))
    }

    @Test("a pattern a linear-time matcher cannot run is refused at import, with its place")
    func unsupportedRegex() throws {
        let json = #"{"request": {"urlPathPattern": "/(?=(a+)+$)"}, "response": {"status": 200}}"#
        let error = try #require(throws: CassetteError.self) { try WireMockFormat.decode(Array(json.utf8), file: "bad.json") }
        #expect(error.path == "$.request.urlPathPattern")
        #expect(error.expected == "a usable regular expression")
        #expect(error.found?.contains("lookahead `(?=` at offset") == true)
    }
}
