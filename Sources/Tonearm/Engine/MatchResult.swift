/// The engine's answer to one request.
public enum MatchResult: Sendable {
    /// Something answers.
    case hit(Hit)
    /// Nothing answers; the report says why and what came closest.
    case miss(MissReport)

    /// The hit, if any.
    public var hit: Hit? {
        if case .hit(let hit) = self { return hit }
        return nil
    }

    /// The miss report, if any.
    public var missReport: MissReport? {
        if case .miss(let report) = self { return report }
        return nil
    }
}
