import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmTestSupport
import TonearmURLSession

@Suite struct StubTests {
    @Test func repliesCarryStatusHeadersAndBodies() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("avatar.json")
        try Data(#"{"avatar":"ada.png"}"#.utf8).write(to: file)
        let tonearm = try TonearmSession.stubs([
            .get("https://api.example.com/me", .json(#"{"name":"Ada"}"#, headers: ["X-Rate-Limit": "10"])),
            .get("https://api.example.com/motd", .text("hello", status: 203)),
            .get("https://api.example.com/blob", .data(Data([0, 1, 2, 255]), contentType: "application/octet-stream")),
            .get("https://api.example.com/avatar", .file(file)),
            .delete("https://api.example.com/me", .status(204)),
            .get("https://api.example.com/encoded", .json(encoding: ["b": 2, "a": 1])),
        ])
        defer { try? tonearm.finish() }
        let session = tonearm.urlSession

        let me = Observed(try await session.data(from: try .literal("https://api.example.com/me")))
        #expect(me.status == 200)
        #expect(me.text == #"{"name":"Ada"}"#)
        #expect(me.headers["content-type"] == "application/json")
        #expect(me.headers["x-rate-limit"] == "10")

        let motd = Observed(try await session.data(from: try .literal("https://api.example.com/motd")))
        #expect(motd.status == 203 && motd.text == "hello")
        #expect(motd.headers["content-type"] == "text/plain; charset=utf-8")

        let blob = Observed(try await session.data(from: try .literal("https://api.example.com/blob")))
        #expect(blob.body == [0, 1, 2, 255])

        let avatar = Observed(try await session.data(from: try .literal("https://api.example.com/avatar")))
        #expect(avatar.text == #"{"avatar":"ada.png"}"#)
        #expect(avatar.headers["content-type"] == "application/json")

        var delete = URLRequest(url: try .literal("https://api.example.com/me"))
        delete.httpMethod = "DELETE"
        let deleted = Observed(try await session.data(for: delete))
        #expect(deleted.status == 204 && deleted.body.isEmpty)

        let encoded = Observed(try await session.data(from: try .literal("https://api.example.com/encoded")))
        #expect(encoded.text == #"{"a":1,"b":2}"#)
    }

    @Test func queuedRepliesAnswerInOrderErrorsIncludedAndTheLastRepeats() async throws {
        let tonearm = try TonearmSession.stubs([
            .get("https://api.example.com/job", .text("queued"), .failure(.networkConnectionLost), .text("done")),
        ])
        defer { try? tonearm.finish() }
        let url = try URL.literal("https://api.example.com/job")
        let first = try await tonearm.urlSession.data(from: url)
        #expect(String(decoding: first.0, as: UTF8.self) == "queued")
        let lost = await #expect(throws: URLError.self) {
            _ = try await tonearm.urlSession.data(from: url)
        }
        #expect(lost?.code == .networkConnectionLost)
        for _ in 0..<3 {
            let later = try await tonearm.urlSession.data(from: url)
            #expect(String(decoding: later.0, as: UTF8.self) == "done")
        }
    }

    @Test func regexRulesAnswerAfterExactStubs() async throws {
        let tonearm = try TonearmSession.stubs([
            .get("https://api.example.com/items/7", .text("exact seven")),
            .rule(#"^https://api\.example\.com/items/\d+$"#, method: "GET", .text("any item")),
            .rule(#"^/health$"#, target: .path, .status(204)),
        ])
        defer { try? tonearm.finish() }
        let seven = try await tonearm.urlSession.data(from: try .literal("https://api.example.com/items/7"))
        let other = try await tonearm.urlSession.data(from: try .literal("https://api.example.com/items/42"))
        let health = try await tonearm.urlSession.data(from: try .literal("http://localhost:8080/health"))
        #expect(String(decoding: seven.0, as: UTF8.self) == "exact seven")
        #expect(String(decoding: other.0, as: UTF8.self) == "any item")
        #expect((health.1 as? HTTPURLResponse)?.statusCode == 204)
    }

    @Test func anInvalidRulePatternFailsWhenTheStubsCompileNamingTheRule() throws {
        #expect {
            _ = try TonearmSession.stubs([.rule("items/(\\d+", .status(200))])
        } throws: { error in
            guard let error = error as? TonearmError, error.ruleError != nil else { return false }
            return error.description.contains("items/(\\d+")
        }
    }

    @Test func aMissingStubFileFailsNamingTheFile() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/tonearm/body.json")
        #expect {
            _ = try TonearmSession.stubs([.get("https://api.example.com/x", .file(missing))])
        } throws: { error in
            "\(error)".contains("/nonexistent/tonearm/body.json") && "\(error)".contains("GET https://api.example.com/x")
        }
    }

    @Test(arguments: [
        (TransportError.timedOut, URLError.Code.timedOut),
        (.notConnectedToInternet, .notConnectedToInternet),
        (.networkConnectionLost, .networkConnectionLost),
        (.cannotFindHost, .cannotFindHost),
        (.cannotConnectToHost, .cannotConnectToHost),
        (.secureConnectionFailed, .secureConnectionFailed),
    ])
    func simulatedTransportErrorsArriveAsURLErrors(error: TransportError, code: URLError.Code) async throws {
        let tonearm = try TonearmSession.stubs([.get("https://api.example.com/flaky", .failure(error))])
        defer { try? tonearm.finish() }
        do {
            _ = try await tonearm.urlSession.data(from: try .literal("https://api.example.com/flaky"))
            Issue.record("expected \(code)")
        } catch let failure as URLError {
            #expect(failure.code == code)
        }
    }

    @Test func completionHandlerAPIsAreAnsweredToo() async throws {
        let tonearm = try TonearmSession.stubs([.get("https://api.example.com/me", .json(#"{"id":1}"#))])
        defer { try? tonearm.finish() }
        let url = try URL.literal("https://api.example.com/me")
        let body: String = try await withCheckedThrowingContinuation { continuation in
            tonearm.urlSession.dataTask(with: url) { data, _, error in
                if let error { continuation.resume(throwing: error) }
                else { continuation.resume(returning: String(decoding: data ?? Data(), as: UTF8.self)) }
            }.resume()
        }
        #expect(body == #"{"id":1}"#)
    }

    @Test func delaysAreHonouredAndCancellationEndsThemEarly() async throws {
        let tonearm = try TonearmSession.stubs([
            .get("https://api.example.com/slow", .text("late").delayed(by: .milliseconds(300))),
            .get("https://api.example.com/stuck", .text("never").delayed(by: .seconds(60))),
        ])
        defer { try? tonearm.finish() }
        let clock = ContinuousClock()
        let slowStart = clock.now
        _ = try await tonearm.urlSession.data(from: try .literal("https://api.example.com/slow"))
        #expect(clock.now - slowStart >= .milliseconds(300))

        let stuck = try URL.literal("https://api.example.com/stuck")
        let request = Task { try await tonearm.urlSession.data(from: stuck) }
        try await Task.sleep(for: .milliseconds(100))
        let cancelledAt = clock.now
        request.cancel()
        await #expect(throws: (any Error).self) { _ = try await request.value }
        #expect(clock.now - cancelledAt < .seconds(10))
    }

    @Test func aFinishedSessionStopsAnswering() async throws {
        let tonearm = try TonearmSession.stubs([.get("https://api.example.com/me", .text("hi"))])
        let session = URLSession(configuration: tonearm.makeConfiguration())
        _ = try await session.data(from: try .literal("https://api.example.com/me"))
        try tonearm.finish()
        #expect(tonearm.isFinished)
        await #expect(throws: URLError.self) {
            _ = try await session.data(from: try .literal("https://api.example.com/me"))
        }
    }
}

extension Observed {
    init(_ pair: (Data, URLResponse)) {
        self.init(pair.0, pair.1)
    }
}
