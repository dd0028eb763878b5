import Foundation
import Synchronization
import Tonearm
import TonearmCassettes
import TonearmReplay

/// What can be done to the cassette a server serves: load another, add stubs, rewind, save. The Swift
/// API (``TonearmServer/load(cassette:mode:strategy:)`` and its siblings) and the control API's
/// handlers both call these, so each operation is written once; the handlers only read the HTTP request
/// and encode the result.
final class CassetteOperations: Sendable {
    let configuration: ServerConfiguration
    private let cassette: Mutex<LoadedCassette>
    /// Told when a cassette is switched away from, so that it does not keep it alive.
    private let journal: Journal

    /// Loads the configured cassette and rule files; `journal` journals their answers.
    init(configuration: ServerConfiguration, journal: Journal) throws(ServerError) {
        self.configuration = configuration
        self.journal = journal
        cassette = Mutex(try LoadedCassette(
            url: configuration.cassette, rules: configuration.rules, mode: configuration.mode,
            strategy: configuration.strategy, matching: configuration.matching, redaction: configuration.redaction,
            usageFolder: configuration.usageFolder))
    }

    /// The cassette in force. An exchange keeps the one it started with, so a switch never sends half
    /// an exchange to another file.
    var current: LoadedCassette { cassette.withLock { $0 } }

    /// Saves the current cassette and loads `url` (`nil`: the rule files only), in `mode` and with
    /// `strategy`, the current mode when `mode` is `nil`.
    func load(_ url: URL?, mode: RecordMode?, strategy: StrategyHint?) throws(ServerError) {
        let next = try LoadedCassette(
            url: url, rules: configuration.rules, mode: mode ?? current.mode, strategy: strategy,
            matching: configuration.matching, redaction: configuration.redaction, usageFolder: configuration.usageFolder)
        let previous = cassette.withLock { current in
            defer { current = next }
            return current
        }
        journal.readReplayedResponses()
        let usage = Result { () throws(ServerError) in try previous.writeUsageRecord() }
        try previous.save()
        try usage.get()
    }

    /// Adds the stubs of a rule-file document, answering after the cassette's tracks and rules until the
    /// cassette is switched; all or none. `file` names the document in errors.
    func addStubs(_ document: [UInt8], syntax: RuleFileFormat.Syntax, file: String) throws(ServerError) {
        let stubs: CassetteImport
        do throws(CassetteError) {
            stubs = try RuleFileFormat.decode(document, syntax: syntax, file: file)
        } catch {
            throw .cassette(error)
        }
        do throws(RuleError) {
            try current.engine.addStubs(stubs)
        } catch {
            throw .rule(error)
        }
    }

    /// Keeps `track` in the cassette in force: it answers from now on and is written to the cassette
    /// file, atomically, without losing what was recorded meanwhile (``ReplaySession/keep(_:)``).
    /// Returns its position among the tracks.
    func keep(_ track: Track) throws(ServerError) -> Int {
        do throws(TonearmError) {
            return try current.session.keep(track)
        } catch {
            throw ServerError(loading: error)
        }
    }

    /// Rewinds the strategies: every track playable again, strict order at its start.
    func reset() {
        current.engine.reset()
    }

    /// Writes what was recorded so far, atomically.
    func save() throws(ServerError) {
        try current.save()
    }

    /// Leaves the current cassette's usage record, when the server keeps them: on stopping.
    func writeUsageRecord() throws(ServerError) {
        try current.writeUsageRecord()
    }
}
