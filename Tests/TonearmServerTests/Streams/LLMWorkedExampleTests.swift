import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// docs/server.md, "Worked example: a streamed chat completion", step by step: a streamed chat completion
/// recorded once through the server from a provider (a local stand-in speaking OpenAI's stream shape,
/// Python/llm_upstream.py), with curl -N as the app; replayed with the provider gone, keyed on the request's
/// canonical JSON with the volatile `user` ignored; a request differing only in `temperature` misses and
/// says so.
@Suite("Streams: the LLM worked example")
struct LLMWorkedExampleTests {
    private static func body(temperature: Double, user: String) -> String {
        #"{"model":"gpt-4o-mini","stream":true,"temperature":\#(temperature),"user":"\#(user)","messages":[{"role":"user","content":"Say hello"}]}"#
    }

    private func post(_ server: TonearmServer, upstreamPort: Int, body: String) async throws -> ProcessRun {
        try await curl([
            "-sN", "-i", "http://127.0.0.1:\(server.port)/127.0.0.1:\(upstreamPort)/v1/chat/completions",
            "-H", "Content-Type: application/json", "-d", body,
        ])
    }

    @Test("Recorded once as events with their times; replayed with the provider gone whatever `user` says; a changed temperature misses, naming it")
    func workedExample() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("llm.json")
        let provider = try await PythonServer("llm_upstream.py")
        let matching = MatchingConfiguration(ignoredJSONFields: [try JSONPointer("/user")])

        // 1. Record: tonearm serve --cassette llm.json --mode missing --hosts http://127.0.0.1:PORT --ignore-json /user
        var recording = quietConfiguration(cassette: cassette, mode: .missing, hosts: [provider.origin])
        recording.matching = matching
        let recorder = try await TonearmServer.start(recording)
        let live = try await post(recorder, upstreamPort: provider.port, body: Self.body(temperature: 0.2, user: "run-1"))
        try await recorder.stop()
        try await provider.stop()
        #expect(live.output.contains(#""content":"Hel""#), "\(live.output)")
        #expect(live.output.contains("data: [DONE]"))
        let track = try #require(try CassetteFile.load(cassette).cassette.tracks.first)
        #expect(track.pacing?.parts.count == 4, "one part per event")
        #expect(try String(contentsOf: cassette, encoding: .utf8).contains(#""object": "chat.completion.chunk""#), "events kept as JSON")

        // 2. Replay with the provider gone: another run's `user`, members in another order.
        var replaying = quietConfiguration(cassette: cassette)
        replaying.matching = matching
        let replayer = try await TonearmServer.start(replaying)
        let again = try await post(
            replayer, upstreamPort: provider.port,
            body: #"{"messages":[{"content":"Say hello","role":"user"}],"user":"run-2","temperature":0.2,"stream":true,"model":"gpt-4o-mini"}"#)
        #expect(again.output.hasPrefix("HTTP/1.1 200"), "\(again.output)")
        #expect(again.output.contains(String(decoding: track.response?.body ?? [], as: UTF8.self)))

        // 3. Only the temperature differs: a miss that names it.
        let changed = try await post(replayer, upstreamPort: provider.port, body: Self.body(temperature: 0.7, user: "run-1"))
        try await replayer.stop()
        #expect(changed.output.hasPrefix("HTTP/1.1 404"), "\(changed.output)")
        #expect(changed.output.lowercased().contains("tonearm-miss:"))
        #expect(changed.output.contains("/temperature"), "\(changed.output)")
    }
}
