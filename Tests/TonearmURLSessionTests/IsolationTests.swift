import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmCassettes
import TonearmTestSupport
import TonearmURLSession

@Suite struct IsolationTests {
    @Test func aThousandConcurrentRequestsThroughOneSessionGetTheirOwnResponses() async throws {
        let count = 1_000
        let stubs = (0..<count).map { Stub.get("https://api.example.com/items/\($0)", .json(#"{"id":\#($0)}"#)) }
        let tonearm = try TonearmSession.stubs(stubs)
        defer { try? tonearm.finish() }
        let wrong = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in (0..<count).shuffled() {
                group.addTask {
                    let (data, _) = try await tonearm.urlSession.data(from: try .literal("https://api.example.com/items/\(index)"))
                    return String(decoding: data, as: UTF8.self) == #"{"id":\#(index)}"#
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 0 : 1) }
        }
        #expect(wrong == 0)
        #expect(tonearm.exchanges.count == count)
    }

    @Test func uniquePlayUnderConcurrencyPlaysEveryTrackExactlyOnce() async throws {
        let count = 200
        let tracks = (0..<count).map {
            Track(request: Request(url: "https://api.example.com/ticket"), response: Response(body: "ticket \($0)"))
        }
        let tonearm = TonearmSession(engine: ReplayEngine(tracks: tracks, strategy: .uniquePlay))
        defer { try? tonearm.finish() }
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let (data, _) = try await tonearm.urlSession.data(from: try .literal("https://api.example.com/ticket"))
                    return String(decoding: data, as: UTF8.self)
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(bodies).count == count)
    }

    /// Twenty test cases run in parallel, each with its own cassette answering the same URL differently.
    @Test(arguments: 0..<20)
    func parallelTestsWithTheirOwnCassettesNeverCross(index: Int) async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("case-\(index).json")
        let track = Track(
            request: Request(url: "https://api.example.com/whoami"),
            response: Response(headers: [HeaderField("Content-Type", "text/plain")], body: "cassette \(index)"))
        try CassetteFile.save(Cassette(tracks: [track]), to: cassette, format: .native)
        let tonearm = try TonearmSession.cassette(at: cassette, options: .init(record: .never), environment: [:])
        defer { try? tonearm.finish() }
        for _ in 0..<25 {
            let (data, _) = try await tonearm.urlSession.data(from: try .literal("https://api.example.com/whoami"))
            #expect(String(decoding: data, as: UTF8.self) == "cassette \(index)")
            await Task.yield()
        }
    }
}
