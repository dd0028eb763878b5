import Foundation
import Tonearm
import TonearmCassettes

/// The demo's scene on the bundled example files: the petstore cassette replayed first, then the
/// petstore rule file, with requests written differently from the recording, and one near-miss explained.
enum PetstoreScene {
    static func run(examples: URL) throws {
        let cassette = try CassetteFile.load(examples.appendingPathComponent("petstore.cassette.json"))
        let rules = try CassetteFile.load(examples.appendingPathComponent("petstore.rules.yaml"))
        let engine = try ReplayEngine(tracks: cassette.cassette.tracks, rules: rules.rules, strategy: .repeat)
        print("\nBundled examples (\(examples.path)): \(cassette.cassette.tracks.count) recorded tracks, then \(rules.rules.count) rules:")
        let requests = [
            Request(method: "get", url: "HTTPS://PetStore.example.com:443/v1/pets?limit=2",
                    headers: [HeaderField("Accept", "application/json")]),
            Request(method: "POST", url: "https://petstore.example.com/v1/./pets",
                    headers: [HeaderField("Content-Type", "application/json")], body: #"{ "tag": "fish", "name": "Moonage" }"#),
            Request(method: "GET", url: "https://petstore.example.com/v1/pets/7"),
            Request(method: "GET", url: "https://petstore.example.com/v1/search?q=cat"),
            Request(method: "DELETE", url: "https://petstore.example.com/v1/pets/3"),
        ]
        for request in requests {
            print("  \(request.method) \(request.url) → \(describe(engine.match(request)))")
        }
        let tracksOnly = ReplayEngine(tracks: cassette.cassette.tracks)
        let nearMiss = Request(method: "POST", url: "https://petstore.example.com/v1/pets",
                               headers: [HeaderField("Content-Type", "application/json")], body: #"{"name":"Moonage","tag":"cat"}"#)
        if let report = tracksOnly.match(nearMiss).missReport {
            print("\nThe same cassette without rules, asked for a pet it never recorded:\n" + report.description)
        }
    }

    private static func describe(_ result: MatchResult) -> String {
        guard let hit = result.hit else { return "miss" }
        let answer: String
        switch hit.track.outcome {
        case .response(let response): answer = "\(response.status)"
        case .transportError(let error): answer = error.identifier
        }
        switch hit.source {
        case .track(let position): return "\(answer) from recorded track #\(position)"
        case .rule(let name, _): return "\(answer) from rule \"\(name)\""
        case .custom(let name): return "\(answer) from \(name)"
        }
    }

    /// `Examples/` in the working directory (the package root, where README runs the demo), else
    /// beside the sources this binary was built from.
    static func examplesFolder(_ explicit: String?) -> URL? {
        let candidates = [
            explicit.map { URL(fileURLWithPath: $0) },
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Examples"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Examples"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("petstore.cassette.json").path) }
    }
}
