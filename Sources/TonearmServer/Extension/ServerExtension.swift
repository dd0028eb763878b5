import Tonearm

/// A part of the request path another module contributes (TonearmWireMock's admin API and stub
/// mappings): the server builds it when it starts (``ServerExtensionInstaller``), places its two stages
/// in its chain and shows what it holds in the inspector, and knows nothing else of it.
package protocol ServerExtension: Sendable {
    /// The stage answering calls under the installer's reserved prefix (routed as
    /// ``RequestRoute/extensionAPI(path:query:)``), tried after the inspector and before the control API.
    var apiStage: any ResponderStage { get }
    /// The stage answering traffic from what the extension holds, tried after tunnels and before the
    /// refusals and the cassette; what it sends on goes through `upstreamClient`, the server's one,
    /// which exists only once the extension is built (so that a failing extension stops the start
    /// before any client is created).
    func trafficStage(upstreamClient: UpstreamClient) -> any ResponderStage
    /// A bound on the instruction visits per request scalar that matching in the traffic stage may cost
    /// off its patterns' tables (0 when none can): the server adds it to the cassette's to decide whether
    /// a request is matched on the event loop.
    var worstPatternVisitsPerScalar: Int { get }
    /// The inspector's rows for what the extension answers from, each with its `hits` from
    /// `hitsByDetail` (the journal's count per ``JournalEntry/Source/detail``).
    func inspectedAnswerers(hitsByDetail: [String: Int]) -> [JSONValue]
    /// The scenarios of what the extension holds, listed beside the cassette's.
    var scenarios: [Scenario] { get }
    /// Sets every scenario to its starting state (the inspector's "reset scenarios").
    func resetScenarios()
    /// What in the extension would answer `request`, without answering it (nor moving any scenario):
    /// the answerer and its status (`nil` for a fault); `nil` when nothing would.
    func peek(_ request: Request) -> (source: JournalEntry.Source, status: Int?)?
}
