import Tonearm
import TonearmServer

/// WireMock in a Tonearm server (`ServerExtension`): its admin API under `/__admin` and its stub
/// mappings answering ahead of the cassette, built by `ServerConfiguration.WireMock` when the server
/// starts.
struct WireMockExtension: ServerExtension {
    /// The stub mappings the admin API changes and the mapping stage answers from.
    let stubs: WireMockStubs
    /// The admin API's stage.
    let apiStage: any ResponderStage
    /// The server's limits: the mapping stage's body limit and shutdown deadline.
    let limits: ServerConfiguration.Limits

    func trafficStage(upstreamClient: UpstreamClient) -> any ResponderStage {
        MappingStage(
            stubs: stubs, proxyClient: upstreamClient, shutdownTimeout: limits.shutdownTimeout, maximumBodySize: limits.maximumBodySize)
    }

    var worstPatternVisitsPerScalar: Int { stubs.isEmpty ? 0 : stubs.engine.worstPatternVisitsPerScalar }

    /// The mappings, newest first, as the inspector lists them: id, name, method, URL, hits and scenario.
    func inspectedAnswerers(hitsByDetail: [String: Int]) -> [JSONValue] {
        stubs.all.map { mapping -> JSONValue in
            let request = mapping.json[member: "request"]
            let url = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"].lazy.compactMap { request?[member: $0]?.stringValue }.first
            return .object([
                "id": .string(mapping.id),
                "name": mapping.json[member: "name"]?.stringValue.map(JSONValue.string) ?? .null,
                "method": request?[member: "method"]?.stringValue.map(JSONValue.string) ?? .null,
                "url": url.map(JSONValue.string) ?? .null,
                "hits": .integer(hitsByDetail[mapping.id] ?? 0),
                "scenario": mapping.json[member: "scenarioName"]?.stringValue.map(JSONValue.string) ?? .null,
                "requiredState": mapping.json[member: "requiredScenarioState"]?.stringValue.map(JSONValue.string) ?? .null,
                "newState": mapping.json[member: "newScenarioState"]?.stringValue.map(JSONValue.string) ?? .null,
            ])
        }
    }

    var scenarios: [Scenario] { stubs.engine.scenarios }

    func resetScenarios() {
        stubs.resetScenarios()
    }

    func peek(_ request: Request) -> (source: JournalEntry.Source, status: Int?)? {
        guard !stubs.isEmpty, case .hit(let hit) = stubs.engine.peek(request) else { return nil }
        return (JournalEntry.Source(kind: .mapping, detail: stubs.mappingID(for: hit)), hit.track.response?.status)
    }
}

extension ServerCore {
    /// The server's WireMock stub mappings, when WireMock is installed in it.
    var wireMock: WireMockStubs? { (installedExtension as? WireMockExtension)?.stubs }
}
