import Tonearm
import TonearmCassettes

/// How a cassette is matched, replayed and recorded. Every option left `nil` falls back to a default
/// (a suite's defaults first, when used from TonearmTesting, then Tonearm's).
public struct CassetteOptions: Sendable {
    /// Which parts of a request make its key; `nil` uses what the cassette file implies (method, URL,
    /// query and body for native cassettes).
    public var configuration: MatchingConfiguration?
    /// How recorded tracks answer; `nil` uses the strategy stored in the cassette, else ``Strategy/repeat``.
    public var strategy: Strategy?
    /// What to do with the network; `nil` defers to `TONEARM_RECORD`, then `CI` (see ``RecordMode``).
    public var record: RecordMode?
    /// What is hidden before a track is written (and from live requests before matching); `nil` hides the
    /// default headers (`Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization`).
    public var redaction: Redaction?
    /// How a replayed stream (``Track/pacing``) is delivered; `nil` defers to `TONEARM_STREAM_PACING`,
    /// then delivers it as recorded (see ``ReplaySession/streamPacing``).
    public var streamPacing: StreamPacing?

    /// Creates options; every `nil` means "use the default".
    public init(
        configuration: MatchingConfiguration? = nil, strategy: Strategy? = nil, record: RecordMode? = nil,
        redaction: Redaction? = nil, streamPacing: StreamPacing? = nil
    ) {
        self.configuration = configuration
        self.strategy = strategy
        self.record = record
        self.redaction = redaction
        self.streamPacing = streamPacing
    }

    /// These options, with every unset one taken from `defaults`.
    public func filling(from defaults: CassetteOptions) -> CassetteOptions {
        CassetteOptions(
            configuration: configuration ?? defaults.configuration,
            strategy: strategy ?? defaults.strategy,
            record: record ?? defaults.record,
            redaction: redaction ?? defaults.redaction,
            streamPacing: streamPacing ?? defaults.streamPacing)
    }
}
