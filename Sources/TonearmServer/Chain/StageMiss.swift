import Tonearm

/// Where a stage looked for a request's answer and did not find it.
package struct StageMiss: Sendable {
    /// Why nothing answered, with the nearest tracks, rules or mappings and how each differs.
    package let report: MissReport
    /// What the stage looked in, as the miss reply names it ("the stub mappings", "cassette /tmp/a.json").
    package let lookedIn: String
    /// The request as the stage looked it up (with the upstream URL it stands for), as the journal keeps it.
    package let request: Request

    /// `report` of what the stage looked up as `request`, in what it names `lookedIn`.
    package init(report: MissReport, lookedIn: String, request: Request) {
        self.report = report
        self.lookedIn = lookedIn
        self.request = request
    }

    /// What the mapping stage names as looked in.
    package static let stubMappings = "the stub mappings"
}
