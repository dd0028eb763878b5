import TonearmServer
import Synchronization

/// The state of WireMock's recorder (`/__admin/recordings/...`): never started, recording since a
/// journal position through a proxy mapping, or stopped. The exchanges themselves are the journal's:
/// recording adds a `proxyBaseUrl` mapping for every request, so what it fetches is answered, and
/// journaled, by the server's one proxy path (``MappingStage``).
final class WireMockRecorder: Sendable {
    /// `status` as WireMock names it.
    enum Status: String, Sendable {
        case neverStarted = "NeverStarted"
        case recording = "Recording"
        case stopped = "Stopped"
    }

    /// A recording in progress.
    struct Recording: Sendable {
        let spec: WireMockRecordSpec
        /// The mapping that proxies every request to the target while recording.
        let proxyMappingID: String
        /// The journal sequence number of the first exchange that may belong to the recording.
        let firstSequence: Int
    }

    private struct State {
        var status = Status.neverStarted
        var recording: Recording?
        /// The proxy mappings of every recording so far: their exchanges stay "proxied" for snapshots
        /// after the mapping is gone, as WireMock's serve events keep their response definition.
        var proxyMappingIDs: Set<String> = []
    }

    private let state = Mutex(State())

    var status: Status { state.withLock { $0.status } }

    /// Starts `recording`; `false` (and nothing changes) when one is in progress already.
    func start(_ recording: () throws(WireMockError) -> Recording) throws(WireMockError) -> Bool {
        try state.withLock { state throws(WireMockError) in
            guard state.status != .recording else { return false }
            let started = try recording()
            state.recording = started
            state.proxyMappingIDs.insert(started.proxyMappingID)
            state.status = .recording
            return true
        }
    }

    /// Ends the recording in progress and returns it, or `nil` when none is.
    func stop() -> Recording? {
        state.withLock { state in
            guard let recording = state.recording else { return nil }
            state.recording = nil
            state.status = .stopped
            return recording
        }
    }

    /// Whether the mapping `id` proxied for a recording.
    func isRecordingProxy(_ id: String) -> Bool {
        state.withLock { $0.proxyMappingIDs.contains(id) }
    }
}
