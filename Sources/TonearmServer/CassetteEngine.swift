import Synchronization
import Tonearm
import TonearmCassettes

/// The engine behind one loaded cassette: its tracks and rule files, the tracks recorded since it was
/// loaded, and stubs added at runtime, on one live ``ReplayEngine``.
///
/// It keeps what the server reports about an answer (a cassette track, a track recorded since loading,
/// a rule file's rule, a runtime stub) and the all-or-nothing addition of a batch of stubs.
final class CassetteEngine: Sendable {
    /// Tracks, then rules by priority; grows while serving.
    let engine: ReplayEngine
    /// How many tracks the engine had once loaded (the cassette's, then the rule files' exact stubs):
    /// positions from here on were recorded or added since.
    let loadedTrackCount: Int
    /// How many rules came from files: rule positions from here on are runtime stubs.
    let fileRuleCount: Int
    private let stubCount = Mutex(0)

    /// Names the answers of `engine`, just loaded: its tracks and rules so far came from files.
    init(_ engine: ReplayEngine) {
        self.engine = engine
        loadedTrackCount = engine.index.positionCount
        fileRuleCount = engine.rules.count
    }

    /// What answered, as the journal names it: the one place the engine's own fact (a track or rule
    /// position) becomes the server's vocabulary (loaded or recorded since, from a file or a runtime stub).
    func source(of hit: Hit) -> JournalEntry.Source {
        switch hit.source {
        case .track(let position) where position >= loadedTrackCount:
            JournalEntry.Source(
                kind: .recorded, detail: "track #\(position), added since the cassette was loaded (recorded or a stub)", position: position)
        case .track(let position): JournalEntry.Source(kind: .track, detail: "track #\(position)", position: position)
        case .rule(let name, let position) where position >= fileRuleCount:
            JournalEntry.Source(kind: .stub, detail: "stub \(name)", position: position)
        case .rule(let name, let position): JournalEntry.Source(kind: .rule, detail: "rule \(name)", position: position)
        case .custom(let name): JournalEntry.Source(kind: .rule, detail: "rule \(name)")
        }
    }

    /// Adds stubs: exact ones as tracks behind the cassette's, pattern ones as rules by priority after
    /// the rules already there; all or none.
    func addStubs(_ stubs: CassetteImport) throws(RuleError) {
        let rules = stubs.rules
        var added: [ReplayEngine.EntryID] = []
        for rule in rules {
            do throws(RuleError) {
                added.append(try engine.add(rule))
            } catch {
                for id in added { engine.remove(id) }
                throw error
            }
        }
        for track in stubs.cassette.tracks { added.append(engine.add(track)) }
        stubCount.withLock { $0 += added.count }
    }

    /// How many stubs were added at runtime.
    var stubs: Int { stubCount.withLock { $0 } }

    /// Rewinds every strategy: all tracks playable again, strict order at its start.
    func reset() {
        engine.reset()
    }
}
