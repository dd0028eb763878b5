import Tonearm
import TonearmServer

extension Dribble {
    /// A mapping's `chunkedDribbleDelay` object.
    init(wireMock json: JSONValue) throws(WireMockError) {
        guard case .object(let members) = json else {
            throw Self.invalid("", "an object with numberOfChunks and totalDuration")
        }
        if let unknown = members.first(where: { !["numberOfChunks", "totalDuration"].contains($0.key) }) {
            throw Self.invalid("/\(unknown.key)", "numberOfChunks and totalDuration only")
        }
        guard let pieces = json[member: "numberOfChunks"]?.intValue, pieces >= 1, pieces <= Self.mostPieces else {
            throw Self.invalid("/numberOfChunks", "numberOfChunks from 1 to \(Self.mostPieces)")
        }
        guard let total = json[member: "totalDuration"]?.intValue, total >= 0, total <= Self.longestMilliseconds else {
            throw Self.invalid("/totalDuration", "totalDuration: milliseconds from 0 to \(Self.longestMilliseconds)")
        }
        self.init(pieces: pieces, total: .milliseconds(total))
    }

    private static func invalid(_ member: String, _ expected: String) -> WireMockError {
        .invalid("/response/chunkedDribbleDelay\(member)", "Error parsing JSON", detail: "chunkedDribbleDelay: expected \(expected)")
    }
}
