import Foundation
import Tonearm
import TonearmCassettes

/// Where a session leaves its usage record, and which files its engine's tracks and rules came from.
package struct UsageLog: Sendable {
    /// The usage folder.
    package var folder: URL
    /// Names the writer in the record.
    package var writer: String
    /// The files loaded into the session's engine.
    package var sources: [UsageSource]

    package init(folder: URL, writer: String, sources: [UsageSource]) {
        self.folder = folder
        self.writer = writer
        self.sources = sources
    }

    /// The log for a session loading `sources` when `environment` names a usage folder
    /// (`TONEARM_USAGE_DIR`), else `nil`.
    package static func fromEnvironment(_ environment: [String: String], sources: [UsageSource]) -> UsageLog? {
        guard let folder = environment[UsageRecord.environmentVariable], !folder.isEmpty, !sources.isEmpty else { return nil }
        return UsageLog(folder: URL(fileURLWithPath: folder), writer: "swift", sources: sources)
    }

    /// Writes the record of `engine`'s answers.
    package func write(_ engine: ReplayEngine) throws(TonearmError) {
        do throws(CassetteError) {
            try UsageRecord(writer: writer, sources: sources, usage: engine.usage()).write(intoFolder: folder)
        } catch {
            throw .cassette(error)
        }
    }
}
