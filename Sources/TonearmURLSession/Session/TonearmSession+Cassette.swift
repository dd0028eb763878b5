import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm
import TonearmCassettes
import TonearmReplay

extension TonearmSession {
    /// A session replaying and recording the cassette at `url` (native JSON, or any format Tonearm
    /// reads; recordings are saved as native JSON, or HAR for a `.har` file).
    ///
    /// The cassette is read only when the mode replays; a file that does not exist yet is an empty
    /// cassette. In `RecordMode/all` and `RecordMode/passthrough` the file is not read at all, so a
    /// broken cassette can be re-recorded.
    ///
    /// - Parameters:
    ///   - url: The cassette file.
    ///   - options: Matching, strategy, record mode and redaction.
    ///   - environment: Where `TONEARM_RECORD` and `CI` are read; the process environment by default.
    ///   - configuration: The base configuration for ``urlSession``.
    /// - Throws: `TonearmError/cassette(_:)` naming the file, line and column when the cassette does
    ///   not parse; `TonearmError/invalidRecordMode(_:)` for a bad `TONEARM_RECORD`.
    public static func cassette(
        at url: URL, options: CassetteOptions = CassetteOptions(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configuration: URLSessionConfiguration = .ephemeral
    ) throws(TonearmError) -> TonearmSession {
        TonearmSession(
            replaying: try ReplaySession.cassette(at: url, options: options, environment: environment),
            configuration: configuration)
    }
}
