import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

/// Issue 20: WireMock.Net's JSON mappings (.NET), written here to the shape of WireMock.Net's
/// `MappingModel`, `RequestModel`, `ResponseModel` and `MatcherModel`: exact mappings replay as tracks,
/// matcher mappings answer as rules, scenarios move, and what Tonearm cannot run is a warning.
@Suite("WireMock.Net mappings")
struct WireMockNetMappingTests {
    /// An array of mappings, as `GET /__admin/mappings` returns them (with the byte order mark .NET
    /// writes at the start of files).
    static let mappings = """
        \u{FEFF}[
          {
            "Guid": "11111111-0000-0000-0000-000000000001",
            "Title": "user by id",
            "Request": {
              "Path": {"Matchers": [{"Name": "ExactMatcher", "Pattern": "/users/7"}]},
              "Methods": ["get"],
              "Params": [{"Name": "fields", "Matchers": [{"Name": "ExactMatcher", "Pattern": "name,id"}]}]
            },
            "Response": {"StatusCode": 200, "BodyAsJson": {"id": 7, "name": "Ada"}, "Headers": {"Content-Type": "application/json"}}
          },
          {
            "Guid": "11111111-0000-0000-0000-000000000002",
            "Request": {
              "Path": "/users",
              "Methods": ["POST"],
              "Body": {"Matcher": {"Name": "JsonMatcher", "Pattern": {"name": "Grace"}}}
            },
            "Response": {"StatusCode": "201", "Body": "created", "Headers": {"Set-Cookie": ["a=1", "b=2"]}, "Delay": 15}
          },
          {
            "Title": "search",
            "Priority": 1,
            "Request": {
              "Path": {"Matchers": [{"Name": "WildcardMatcher", "Pattern": "/search/*", "IgnoreCase": true}]},
              "Methods": ["GET", "HEAD"],
              "Headers": [
                {"Name": "Accept", "Matchers": [{"Name": "WildcardMatcher", "Pattern": "application/*"}]},
                {"Name": "X-Unchecked"}
              ],
              "Params": [
                {"Name": "q", "Matchers": [{"Name": "RegexMatcher", "Pattern": "^[a-z]+$"}]},
                {"Name": "debug"}
              ]
            },
            "Response": {"StatusCode": 200, "BodyAsBytes": "aGVsbG8="}
          },
          {
            "Title": "order",
            "Request": {
              "Url": {"Matchers": [{"Name": "RegexMatcher", "Pattern": "/orders$"}]},
              "Methods": ["PUT"],
              "Body": {"Matcher": {"Name": "JsonPartialMatcher", "Pattern": "{\\"sku\\": \\"A1\\", \\"qty\\": 2, \\"ship\\": {\\"to\\": \\"NL\\"}}"}}
            },
            "Response": {"StatusCode": 202}
          },
          {
            "Title": "catch-all",
            "Priority": 100,
            "Request": {"Path": {"Matchers": [{"Name": "WildcardMatcher", "Pattern": "*"}]}},
            "Response": {"StatusCode": 404, "Body": "not stubbed"}
          },
          {
            "Title": "empty basket",
            "Scenario": "basket",
            "SetStateTo": "Full",
            "Request": {"Path": "/basket", "Methods": ["GET"]},
            "Response": {"Body": "empty"}
          },
          {
            "Title": "full basket",
            "Scenario": "basket",
            "WhenStateIs": "Full",
            "Request": {"Path": "/basket", "Methods": ["GET"]},
            "Response": {"Body": "full"}
          }
        ]
        """

    @Test("WireMock.Net mappings are detected by content, exact mappings replay as tracks and survive native and HAR round trips")
    func exactMappingsReplay() throws {
        let imported = try OtherLanguagesCassetteTests.loadAndReplay("mappings.json", Self.mappings, detectedAs: .wiremockNet)
        #expect(imported.warnings.isEmpty, "\(imported.warnings)")
        let tracks = imported.cassette.tracks
        #expect(tracks.map(\.request.url) == ["/users/7?fields=name%2Cid", "/users", "/basket", "/basket"])
        #expect(tracks.map(\.name) == ["user by id", "11111111-0000-0000-0000-000000000002", "empty basket", "full basket"])
        #expect(tracks[0].response?.body == Array(#"{"id":7,"name":"Ada"}"#.utf8))
        #expect(tracks[1].request.body == Array(#"{"name":"Grace"}"#.utf8) && tracks[1].response?.status == 201)
        #expect(tracks[1].response?.headers.values(named: "set-cookie") == ["a=1", "b=2"])
        #expect(tracks[1].delay == .milliseconds(15))
        #expect(tracks[2].scenario == ScenarioStep("basket", requiredState: "Started", newState: "Full"))
        #expect(imported.rules.map(\.name) == ["catch-all", "order", "search (HEAD)", "search (GET)"])
    }

    @Test("WireMock.Net matcher mappings answer as rules: wildcard, regex and exact matchers, JSON partial bodies, priorities, scenarios")
    func matcherMappingsAnswer() throws {
        let imported = try WireMockNetFormat.decode(Array(Self.mappings.utf8), file: "mappings.json")
        let engine = try imported.makeEngine()
        let search = Request(url: "http://localhost:9091/SEARCH/books?q=swift&debug=1", headers: [HeaderField("Accept", "application/json")])
        #expect(engine.match(search).hit?.track.response?.body == Array("hello".utf8), "wildcard path without case, header wildcard, regex parameter")
        var upperQuery = search
        upperQuery.url = "http://localhost:9091/search/books?q=Swift&debug=1"
        #expect(engine.match(upperQuery).hit?.track.response?.status == 404, "the regex parameter does not hold: the catch-all answers")
        var noDebug = search
        noDebug.url = "http://localhost:9091/search/books?q=swift"
        #expect(engine.match(noDebug).hit?.track.response?.status == 404, "a parameter without matchers must be present")
        let order = Request(
            method: "PUT", url: "http://localhost:9091/orders", headers: [HeaderField("Content-Type", "application/json")],
            body: Array(#"{"qty":2,"sku":"A1","ship":{"to":"NL","at":"noon"},"note":"x"}"#.utf8))
        #expect(engine.match(order).hit?.track.response?.status == 202, "a partial JSON pattern tolerates other members")
        var otherCountry = order
        otherCountry.body = Array(#"{"qty":2,"sku":"A1","ship":{"to":"BE"}}"#.utf8)
        #expect(engine.match(otherCountry).hit?.track.response?.status == 404)
        #expect(engine.match(Request(url: "http://localhost:9091/basket")).hit?.track.response?.body == Array("empty".utf8))
        #expect(engine.match(Request(url: "http://localhost:9091/basket")).hit?.track.response?.body == Array("full".utf8), "the state moved on")
        #expect(engine.match(Request(url: "http://localhost:9091/basket")).hit?.track.response?.body == Array("full".utf8))
    }

    @Test("WireMock.Net: what Tonearm cannot run is a warning naming its JSON path, in lint too")
    func unsupportedFeaturesAreWarnings() throws {
        let mapping = """
            {
              "Guid": "22222222-0000-0000-0000-000000000001",
              "Probability": 0.5,
              "Webhook": {"Request": {"Url": "http://hook", "Method": "post"}},
              "Request": {
                "Path": {"Matchers": [{"Name": "WildcardMatcher", "Pattern": "/a"}]},
                "Methods": ["POST"],
                "Cookies": [{"Name": "session", "Matchers": [{"Name": "ExactMatcher", "Pattern": "x"}]}],
                "Headers": [{"Name": "X-Test", "RejectOnMatch": true, "Matchers": [{"Name": "ExactMatcher", "Pattern": "no"}]}],
                "Body": {"Matcher": {"Name": "XPathMatcher", "Pattern": "/todo-list[count(todo-item) = 3]"}}
              },
              "Response": {
                "StatusCode": "{{request.query.code}}", "Body": "{{request.path}}", "UseTransformer": true,
                "MinimumRandomDelay": 10, "MaximumRandomDelay": 20, "BodyAsFile": "C:\\\\temp\\\\a.json"
              }
            }
            """
        let folder = try TemporaryFolder()
        try folder.write("limits.json", mapping)
        let imported = try CassetteFile.load(folder.file("limits.json"))
        #expect(imported.rules.count == 1)
        #expect(Set(imported.warnings.map(\.path)) == [
            "$.Probability", "$.Webhook", "$.Request.Cookies", "$.Request.Headers[0]", "$.Request.Body.Matcher",
            "$.Response.StatusCode", "$.Response.UseTransformer", "$.Response.MinimumRandomDelay", "$.Response.MaximumRandomDelay",
        ], "\(imported.warnings)")
        let lint = CassetteLinter.lint(imported)
        #expect(lint.filter { $0.kind == .importWarning }.count == imported.warnings.count, "\(lint)")
    }

    @Test("WireMock.Net: BodyAsFile is read beside the mapping, and a WireMock root of .NET mappings (its __admin folder) loads")
    func bodyFilesAndAdminFolder() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("__admin/mappings"), withIntermediateDirectories: true)
        try folder.write("__admin/mappings/answer.xml", "<answer>42</answer>")
        try folder.write("__admin/mappings/answer.json", """
            {"Request": {"Path": "/answer", "Methods": ["GET"]},
             "Response": {"StatusCode": 200, "Headers": {"Content-Type": "application/xml"}, "BodyAsFile": "answer.xml"}}
            """)
        for url in [folder.file("__admin/mappings/answer.json"), folder.file("__admin")] {
            let imported = try CassetteFile.load(url)
            #expect(imported.warnings.isEmpty, "\(imported.warnings)")
            #expect(imported.cassette.tracks.map(\.request.url) == ["/answer"])
            #expect(imported.cassette.tracks.first?.response?.body == Array("<answer>42</answer>".utf8))
        }
        try folder.write("__admin/mappings/escape.json", #"{"Request": {"Path": "/x"}, "Response": {"BodyAsFile": "../../secret"}}"#)
        #expect(throws: CassetteError.self) { try CassetteFile.load(folder.file("__admin/mappings/escape.json")) }
    }

    @Test("Detection tells WireMock.Net mappings (trailing commas and all) from WireMock (Java) mappings and from Vinyl arrays")
    func detection() throws {
        let folder = try TemporaryFolder()
        try folder.write("java.json", #"{"request": {"method": "GET", "url": "/a"}, "response": {"status": 200}}"#)
        // Json.NET, which WireMock.Net reads mappings with, takes a comma before a closing bracket.
        try folder.write("net.json", #"{"Request": {"Path": "/a", "Methods": ["GET",]}, "Response": {"StatusCode": 200,},}"#)
        try folder.write("vinyl.json", #"[{"request": {"url": "https://a.example/x"}, "response": {"status": 200}}]"#)
        #expect(try CassetteFormat.detect(folder.file("java.json")) == .wiremock)
        #expect(try CassetteFormat.detect(folder.file("net.json")) == .wiremockNet)
        #expect(try CassetteFormat.detect(folder.file("vinyl.json")) == .vinyl)
        #expect(CassetteFormat(name: "WireMockNet") == .wiremockNet)
        #expect(try CassetteFile.load(folder.file("net.json")).cassette.tracks.map(\.request.url) == ["/a"])
    }
}
