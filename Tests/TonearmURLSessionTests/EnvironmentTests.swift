import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmCassettes
import TonearmTestSupport
import TonearmURLSession

/// `installFromEnvironment` uses the one global slot, so these tests run one at a time.
@Suite(.serialized) struct EnvironmentTests {
    @Test func nothingHappensWhenNoVariableIsSet() throws {
        #expect(try TonearmSession.installFromEnvironment(["PATH": "/usr/bin", "CI": "true"]) == nil)
        #expect(TonearmSession.global == nil)
    }

    @Test func inlineStubsInstallGloballyAndAnswerSessionsBuiltFromTheGlobalConfiguration() async throws {
        let json = #"""
        [
          {"method": "GET", "url": "https://api.example.com/me", "json": {"name": "Ada", "id": 1}},
          {"method": "GET", "url": "https://api.example.com/feed", "body": "first"},
          {"method": "GET", "url": "https://api.example.com/feed", "error": "notConnectedToInternet"},
          {"pattern": "^https://api\\.example\\.com/items/\\d+$", "status": 404, "body": "gone", "headers": {"Retry-After": "5"}}
        ]
        """#
        let installed = try #require(try TonearmSession.installFromEnvironment(["TONEARM_STUBS": json]))
        defer { try? installed.finish() }
        #expect(TonearmSession.global === installed)
        let session = URLSession(configuration: TonearmSession.globalConfiguration())

        let (me, _) = try await session.data(from: try .literal("https://api.example.com/me"))
        #expect(String(decoding: me, as: UTF8.self) == #"{"name":"Ada","id":1}"#, "replied as written")
        let (feed, _) = try await session.data(from: try .literal("https://api.example.com/feed"))
        #expect(String(decoding: feed, as: UTF8.self) == "first")
        let offline = await #expect(throws: URLError.self) {
            _ = try await session.data(from: try .literal("https://api.example.com/feed"))
        }
        #expect(offline?.code == .notConnectedToInternet)
        let (gone, response) = try await session.data(from: try .literal("https://api.example.com/items/9"))
        #expect(String(decoding: gone, as: UTF8.self) == "gone")
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After") == "5")

        try installed.finish()
        #expect(TonearmSession.global == nil, "finishing uninstalls the global session")
    }

    @Test func aCassetteFolderAndTestNameNameTheCassette() async throws {
        let folder = try TemporaryFolder()
        let track = Track(request: Request(url: "https://api.example.com/ping"), response: Response(body: "pong"))
        try CassetteFile.save(Cassette(tracks: [track]), to: folder.file("launch-test.json"), format: .native)
        let session = try #require(try TonearmSession.fromEnvironment([
            "TONEARM_CASSETTE_DIR": folder.url.path, "TONEARM_TEST_NAME": "launch-test", "TONEARM_RECORD": "never",
        ]))
        defer { try? session.finish() }
        #expect(session.cassetteURL?.lastPathComponent == "launch-test.json")
        #expect(session.mode == .never)
        let (data, _) = try await session.urlSession.data(from: try .literal("https://api.example.com/ping"))
        #expect(String(decoding: data, as: UTF8.self) == "pong")
    }

    @Test func stubsThatDoNotDecodeFailWithTheVariableAndWhereItWentWrong() {
        #expect {
            _ = try TonearmSession.fromEnvironment(["TONEARM_STUBS": #"[{"url": "https://x", "status": "ok"}]"#])
        } throws: { error in
            "\(error)".hasSuffix("TONEARM_STUBS:1:33: at $[0].status: expected an integer, found a string")
        }
        #expect {
            _ = try TonearmSession.fromEnvironment(["TONEARM_STUBS": #"[{"url": "https://x",]"#])
        } throws: { error in
            "\(error)".contains("TONEARM_STUBS:1:22: expected a member name in double quotes, found ']'")
        }
        #expect {
            _ = try TonearmSession.fromEnvironment(["TONEARM_STUBS": #"[{"status": 200}]"#])
        } throws: { error in
            "\(error)".contains(#"TONEARM_STUBS:1:2: at $[0]: expected an exact "url""#)
        }
        #expect {
            _ = try TonearmSession.fromEnvironment(["TONEARM_STRATEGY": "random"])
        } throws: { error in
            "\(error)".contains("\"random\" is not a strategy")
        }
    }

    @Test func inlineJSONBodiesAreRepliedAsWrittenNeverRoundedThroughDouble() async throws {
        let json = #"[{"url": "https://api.example.com/n", "json": {"id": 9007199254740993, "big": 12345678901234567890, "x": 1.10}}]"#
        let session = try #require(try TonearmSession.fromEnvironment(["TONEARM_STUBS": json]))
        defer { try? session.finish() }
        let (data, response) = try await session.urlSession.data(from: try .literal("https://api.example.com/n"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":9007199254740993,"big":12345678901234567890,"x":1.10}"#)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func aMisspeltStubMemberIsAnErrorSuggestingTheKnownOne() {
        #expect {
            _ = try TonearmSession.fromEnvironment(["TONEARM_STUBS": #"[{"url": "https://x", "stauts": 201}]"#])
        } throws: { error in
            "\(error)".contains(#"TONEARM_STUBS:1:33: at $[0].stauts: expected a known member of rule "rule 1"; did you mean "status"?, found unknown member "stauts""#)
        }
    }

    @Test func inlineRulesCanHaveQueryConditions() async throws {
        let json = #"[{"pattern": "^https://api\\.example\\.com/items", "query": {"page": "2"}, "body": "page two"}]"#
        let session = try #require(try TonearmSession.fromEnvironment(["TONEARM_STUBS": json]))
        defer { try? session.finish() }
        let (data, _) = try await session.urlSession.data(from: try .literal("https://api.example.com/items?page=2"))
        #expect(String(decoding: data, as: UTF8.self) == "page two")
        await #expect(throws: (any Error).self) {
            _ = try await session.urlSession.data(from: try .literal("https://api.example.com/items?page=3"))
        }
    }

    @Test func launchArgumentsAndTheNewSwitchesRefuseWhatTheyCannotUse() {
        let cases: [([String: String], [String], String)] = [
            ([:], ["-TONEARM_RECORD"], "launch argument -TONEARM_RECORD: expected a value after it, found the end of the arguments"),
            ([:], ["STUB_API_CALLS_"], "launch argument STUB_API_CALLS_: expected STUB_API_CALLS_<name>"),
            (["TONEARM_MISSES": "sometimes"], [], #"environment variable TONEARM_MISSES: expected fail or network, found "sometimes""#),
            (["TONEARM_URL_STUBS": "maybe"], [], #"environment variable TONEARM_URL_STUBS: expected 1 to turn URL-keyed stubs on, found "maybe""#),
            (["TONEARM_CASSETTE": "/tmp/x.json"], ["-TONEARM_MISSES", "network"], "environment variable TONEARM_MISSES: network applies to stubs without a cassette"),
        ]
        for (environment, arguments, message) in cases {
            #expect {
                _ = try TonearmSession.fromEnvironment(environment, arguments: arguments)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    @Test func theBundleFolderAloneOrUnrelatedArgumentsInstallNothing() throws {
        #expect(try TonearmSession.fromEnvironment(["TONEARM_STUB_BUNDLES": "/tmp"], arguments: ["/usr/bin/app", "-AppleLanguages", "(en)"]) == nil)
    }

    @Test func aLaunchArgumentPairSetsTheRecordMode() throws {
        let folder = try TemporaryFolder()
        let session = try #require(try TonearmSession.fromEnvironment(
            ["TONEARM_RECORD": "missing"], arguments: ["-TONEARM_CASSETTE", folder.file("c.json").path, "-TONEARM_RECORD", "never"]))
        defer { try? session.finish() }
        #expect(session.mode == .never, "the argument wins over the environment")
        #expect(session.cassetteURL?.lastPathComponent == "c.json")
    }

    @Test("TONEARM_STREAM_PACING (or -TONEARM_STREAM_PACING) sets how replayed streams are delivered; a value that is not a pacing is an error naming the variable")
    func streamPacing() throws {
        let stubs = #"[{"method": "GET", "url": "https://api.example.com/flags", "json": {"beta": true}}]"#
        let halved = try #require(try TonearmSession.fromEnvironment(["TONEARM_STUBS": stubs, "TONEARM_STREAM_PACING": "0.5"]))
        #expect(halved.replaySession.streamPacing == StreamPacing.scaled(0.5))
        let off = try #require(try TonearmSession.fromEnvironment(["TONEARM_STUBS": stubs], arguments: ["-TONEARM_STREAM_PACING", "off"]))
        #expect(off.replaySession.streamPacing == .immediate)
        #expect(try TonearmSession.fromEnvironment(["TONEARM_STREAM_PACING": "off"]) == nil, "alone it installs nothing")
        do {
            _ = try TonearmSession.fromEnvironment(["TONEARM_STUBS": stubs, "TONEARM_STREAM_PACING": "fast"])
            Issue.record("an unknown pacing was accepted")
        } catch {
            #expect("\(error)".contains("TONEARM_STREAM_PACING"))
        }
    }

    // README: "Configuration from the environment"
    @Test func launchedProcess() async throws {
        let environment = [
            "TONEARM_STUBS": #"[{"method": "GET", "url": "https://api.example.com/flags", "json": {"beta": true}}]"#
        ]
        // In the launched program: `try TonearmSession.installFromEnvironment()` reads the process environment.
        let installed = try TonearmSession.installFromEnvironment(environment)
        defer { try? installed?.finish() }

        let session = URLSession(configuration: TonearmSession.globalConfiguration())
        let (data, _) = try await session.data(from: try #require(URL(string: "https://api.example.com/flags")))
        #expect(String(decoding: data, as: UTF8.self) == #"{"beta":true}"#)
    }
}
