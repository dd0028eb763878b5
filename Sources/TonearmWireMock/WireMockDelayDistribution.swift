import Foundation
import Tonearm
import TonearmServer

/// A mapping's `delayDistribution`: a delay drawn per request, as WireMock 2.35.1 reads them —
/// `uniform` (`lower`, `upper` milliseconds), `lognormal` (`median` milliseconds, `sigma`) and `fixed`
/// (`milliseconds`). Members WireMock does not know (`maxValue` is 3.x's) are refused as it refuses them.
struct WireMockDelayDistribution: Sendable {
    enum Kind: Sendable {
        case uniform(lower: Int, upper: Int)
        case lognormal(median: Double, sigma: Double)
        case fixed(Int)
    }

    let kind: Kind

    /// The longest delay drawn, whatever the parameters: a lognormal tail or a typo must not park a
    /// connection for days.
    static let longest = 3_600_000

    init(_ json: JSONValue) throws(WireMockError) {
        guard case .object(let members) = json, let type = json[member: "type"]?.stringValue else {
            throw Self.invalid("", "an object with a type: uniform, lognormal or fixed")
        }
        let known: Set<String> = switch type {
        case "uniform": ["type", "lower", "upper"]
        case "lognormal": ["type", "median", "sigma"]
        case "fixed": ["type", "milliseconds"]
        default: throw Self.invalid("/type", "a type: uniform, lognormal or fixed (found \"\(type)\")")
        }
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw Self.invalid("/\(unknown.key)", "\(unknown.key) is not a member of a \(type) delay distribution")
        }
        switch type {
        case "uniform":
            let lower = try Self.milliseconds(json, "lower")
            let upper = try Self.milliseconds(json, "upper")
            guard lower <= upper else { throw Self.invalid("/upper", "upper at least lower") }
            kind = .uniform(lower: lower, upper: upper)
        case "lognormal":
            guard let median = Self.number(json[member: "median"]), median >= 0, median <= Double(Self.longest) else {
                throw Self.invalid("/median", "median: milliseconds from 0 to \(Self.longest)")
            }
            guard let sigma = Self.number(json[member: "sigma"]), sigma >= 0, sigma <= 100 else {
                throw Self.invalid("/sigma", "sigma: a number from 0 to 100")
            }
            kind = .lognormal(median: median, sigma: sigma)
        default:
            kind = .fixed(try Self.milliseconds(json, "milliseconds"))
        }
    }

    /// A delay drawn from the distribution.
    func sample() -> Duration {
        var generator = SystemRandomNumberGenerator()
        let milliseconds: Int
        switch kind {
        case .uniform(let lower, let upper):
            milliseconds = Int.random(in: lower...upper, using: &generator)
        case .lognormal(let median, let sigma):
            // A standard normal draw (Box–Muller), then e^(σ·z)·median, as WireMock draws it.
            let u1 = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &generator)
            let u2 = Double.random(in: 0..<1, using: &generator)
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            let drawn = (exp(normal * sigma) * median).rounded()
            milliseconds = drawn.isFinite ? Int(min(max(drawn, 0), Double(Self.longest))) : Self.longest
        case .fixed(let value):
            milliseconds = value
        }
        return .milliseconds(milliseconds)
    }

    private static func milliseconds(_ json: JSONValue, _ key: String) throws(WireMockError) -> Int {
        guard let value = json[member: key]?.intValue, value >= 0, value <= longest else {
            throw invalid("/\(key)", "\(key): whole milliseconds from 0 to \(longest)")
        }
        return value
    }

    private static func number(_ value: JSONValue?) -> Double? {
        guard case .number(let text)? = value else { return nil }
        return Double(text)
    }

    private static func invalid(_ member: String, _ expected: String) -> WireMockError {
        .invalid("/response/delayDistribution\(member)", "Error parsing JSON", detail: "delayDistribution: expected \(expected)")
    }
}
