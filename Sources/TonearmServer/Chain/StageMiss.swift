import Tonearm

/// Where a stage looked for a request's answer and did not find it.
struct StageMiss: Sendable {
    /// Why nothing answered, with the nearest tracks, rules or mappings and how each differs.
    let report: MissReport
    /// What the stage looked in, as the miss reply names it ("the stub mappings", "cassette /tmp/a.json").
    let lookedIn: String
    /// The request as the stage looked it up (with the upstream URL it stands for), as the journal keeps it.
    let request: Request

    /// What the mapping stage names as looked in.
    static let stubMappings = "the stub mappings"
}
