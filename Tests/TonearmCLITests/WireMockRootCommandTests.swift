import Foundation
import Testing
import TonearmTestSupport

/// Issue 20 §6: a WireMock root folder given where a folder is accepted is read as WireMock, not as a
/// Tonearm stub folder of rules made from file names.
@Suite("WireMock root folders on the command line", .enabled(if: TonearmExecutable.url != nil, TonearmExecutable.missingMessage))
struct WireMockRootCommandTests {
    @Test("lint, explain and convert read the root's mappings, bodies from __files")
    func lintExplainConvert() async throws {
        let folder = try TemporaryFolder()
        let root = try folder.makeWireMockRoot()
        let lint = try await TonearmExecutable.run(["lint", root.path])
        #expect(lint.status == 0, "\(lint.output)\(lint.errors)")
        #expect(lint.output.contains("1 track(s), 1 rule(s), 0 finding(s)"), "\(lint.output)")
        let explain = try await TonearmExecutable.run(["explain", "--cassette", root.path, "--url", "http://127.0.0.1:8080/users/42"])
        #expect(explain.status == 0, "\(explain.output)\(explain.errors)")
        #expect(explain.output.contains("Match"), "\(explain.output)")
        let rule = try await TonearmExecutable.run(["explain", "--cassette", root.path, "--url", "http://127.0.0.1:8080/search/ada"])
        #expect(rule.status == 0, "\(rule.output)\(rule.errors)")
        let converted = folder.file("out.json")
        let convert = try await TonearmExecutable.run(["convert", root.path, converted.path])
        #expect(convert.status == 0, "\(convert.errors)")
        let written = try String(contentsOf: converted, encoding: .utf8)
        #expect(written.contains(#""text": "{\"id\":42}""#), "the __files body is in the converted track: \(written)")
    }

    @Test("lint reads a root as serve --root-dir does: a plugin-style folder (basicAuth, a multipart name, no response, a response-template) passes; what serve refuses, lint lists, each, and exits 2")
    func lintAgreesWithServe() async throws {
        let folder = try TemporaryFolder()
        let root = try folder.makePluginStyleWireMockRoot()
        // Response members serve reads itself (a response-template, a statusMessage, a delayDistribution) are no finding.
        try folder.write(
            "wm-plugin/mappings/templated.json",
            #"{"request": {"url": "/tpl"}, "response": {"body": "at {{request.path}}", "transformers": ["response-template"], "statusMessage": "Fine", "delayDistribution": {"type": "uniform", "lower": 1, "upper": 2}}}"#)
        let lint = try await TonearmExecutable.run(["lint", root.path])
        #expect(lint.status == 0, "\(lint.output)\(lint.errors)")
        #expect(lint.output.contains("0 finding(s)"), "\(lint.output)")

        // Two mappings serve refuses (a matcher Tonearm does not run on a header, which the importer only warns about; a
        // template that cannot render, which only the server checks): lint names both files and exits 2, as serve does not start.
        try folder.write(
            "wm-plugin/mappings/schema.json",
            #"{"request": {"method": "POST", "url": "/x", "headers": {"X-Body": {"matchesJsonPath": "$.a"}}}}"#)
        try folder.write(
            "wm-plugin/mappings/template.json",
            #"{"request": {"url": "/t"}, "response": {"body": "{{#if x}}", "transformers": ["response-template"]}}"#)
        let refused = try await TonearmExecutable.run(["lint", root.path])
        #expect(refused.status == 2, "\(refused.output)\(refused.errors)")
        #expect(refused.output.contains("[serve-refuses]") && refused.output.contains("schema.json") && refused.output.contains("template.json"), "\(refused.output)")
        #expect(refused.output.contains("2 mapping(s) tonearm serve --root-dir refuses"), "\(refused.output)")
    }

    @Test("lint reads WireMock 3's urlPathTemplate and pathParameters as serve does: a good mapping passes, a parameter the template lacks is an error naming the file and member, as serve does not start")
    func lintReadsPathTemplates() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("wm3/mappings"), withIntermediateDirectories: true)
        try folder.write("wm3/mappings/contacts.json", #"""
            {"request": {"method": "GET", "urlPathTemplate": "/contacts/{contactId}", "pathParameters": {"contactId": {"equalTo": "1"}}},
             "response": {"status": 200, "body": "contact"}}
            """#)
        let lint = try await TonearmExecutable.run(["lint", folder.file("wm3").path])
        #expect(lint.status == 0, "\(lint.output)\(lint.errors)")
        #expect(lint.output.contains("0 finding(s)"), "\(lint.output)")
        try folder.write("wm3/mappings/typo.json", #"""
            {"request": {"method": "GET", "urlPathTemplate": "/things/{id}", "pathParameters": {"thingId": {"equalTo": "1"}}}}
            """#)
        let refused = try await TonearmExecutable.run(["lint", folder.file("wm3").path])
        #expect(refused.status == 2, "\(refused.output)\(refused.errors)")
        let reported = refused.output + refused.errors
        #expect(reported.contains("typo.json") && reported.contains("pathParameters.thingId"), "\(reported)")
    }
}
