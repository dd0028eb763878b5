import Tonearm
import TonearmCassettes

/// Replays every recorded request of an import through an engine built from the same import.
enum SelfReplay {
    /// Positions of the tracks whose own request did not come back to them, with the reason.
    ///
    /// Requests are replayed in recording order under a FIFO that misses when exhausted, so repeated
    /// requests (same key) each reach their own recording; a track with a scenario is replayed with its
    /// scenario put in the state it requires.
    static func failures(_ imported: CassetteImport) throws -> [String] {
        let engine = try imported.makeEngine(strategy: .uniquePlay)
        var failures: [String] = []
        for (position, track) in imported.cassette.tracks.enumerated() {
            if let step = track.scenario, let state = step.requiredState {
                try engine.setState(ofScenario: step.name, to: state)
            }
            switch engine.match(track.request) {
            case .hit(let hit) where hit.trackPosition == position: continue
            case .hit(let hit): failures.append("track \(position) (\(track.request.method) \(track.request.url)) answered by \(hit.source)")
            case .miss(let report): failures.append("track \(position) missed:\n\(report)")
            }
        }
        return failures
    }
}
