import Tonearm

/// A small scene for the demo: one request recorded three times (a 503, a timeout, then success)
/// replayed as a FIFO queue, then as unique-play, showing how each answers a fourth call.
enum QueueScene {
    static func run() throws {
        let request = Request(method: "GET", url: "https://status.example.com/health?verbose=1")
        let tracks = [
            Track(request: request, response: Response(status: 503, body: "busy"), name: "busy"),
            Track(request: request, outcome: .transportError(.timedOut), name: "timeout"),
            Track(request: request, response: Response(status: 200, body: "ok"), name: "healthy"),
        ]
        print("\nOne request recorded three times, asked four times:")
        for (label, strategy) in [("fifo", Strategy.fifo()), ("unique-play", Strategy.uniquePlay)] {
            let engine = ReplayEngine(tracks: tracks, strategy: strategy)
            let answers = (0..<4).map { _ in describe(engine.match(request)) }
            print("  \(label): " + answers.joined(separator: " → "))
        }
    }

    private static func describe(_ result: MatchResult) -> String {
        switch result {
        case .hit(let hit):
            switch hit.track.outcome {
            case .response(let response): return "\(response.status)"
            case .transportError(let error): return error.identifier
            }
        case .miss(let report):
            return "miss (\(report.reason))"
        }
    }
}
