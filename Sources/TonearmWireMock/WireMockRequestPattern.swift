import Foundation
import Tonearm
import TonearmServer
import TonearmCassettes

/// A WireMock `RequestPattern` (the body of `requests/count`, `requests/find` and
/// `near-misses/request-pattern`), read by the same importer as mappings and matched by a one-stub
/// engine, so a pattern means exactly what it means in a mapping.
struct WireMockRequestPattern: Sendable {
    /// The pattern as sent, for near-miss answers.
    let json: JSONValue
    private let engine: ReplayEngine
    /// Whether the pattern names one exact request (then near misses can say how far others are).
    private let isExact: Bool

    init(_ body: [UInt8], source: String, bodyFiles: URL?) throws(WireMockError) {
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .invalid(nil, "Error parsing JSON", detail: "\(source): \(error)")
        }
        guard case .object = json else { throw .invalid("", "Error parsing JSON", detail: "\(source): expected a request pattern object") }
        // The pattern's bytes go in as sent, so pointers in errors need only the /request prefix dropped.
        let wrapped = Array(#"{"request":"#.utf8) + body + Array(#","response":{}}"#.utf8)
        let mapping: WireMockMapping
        do throws(WireMockError) {
            mapping = try WireMockMapping.decode(wrapped, source: source, reading: WireMockMappingReading(bodyFiles: bodyFiles))
        } catch {
            var unwrapped = error
            if let pointer = unwrapped.pointer, pointer.hasPrefix("/request") { unwrapped.pointer = String(pointer.dropFirst("/request".count)) }
            throw unwrapped
        }
        switch mapping.stub {
        case .track(let track):
            engine = ReplayEngine(tracks: [track], strategy: .repeat, configuration: WireMockFormat.configuration)
            isExact = true
        case .rule(let rule):
            do throws(RuleError) {
                engine = try ReplayEngine(rules: [rule], strategy: .repeat, configuration: WireMockFormat.configuration)
            } catch {
                throw .invalid(nil, "Invalid request pattern", detail: "\(error)")
            }
            isExact = false
        }
    }

    /// Whether `request` matches the pattern.
    func matches(_ request: Request) -> Bool {
        engine.match(request).hit != nil
    }

    /// How far `request` is from the pattern (0 when it matches), or `nil` when the request shares
    /// nothing with an exact pattern to compare.
    func distance(to request: Request) -> Double? {
        switch engine.match(request) {
        case .hit: return 0
        case .miss(let report):
            if isExact {
                return report.nearest.first.map { WireMockNearMiss.distance($0.differences) }
            }
            return report.nearestRules.first.map { WireMockNearMiss.distance($0.differences) }
        }
    }
}

/// Tonearm's miss reports as WireMock near misses.
enum WireMockNearMiss {
    /// WireMock lists at most this many near misses.
    static let limit = 3

    /// A distance in 0…1 from the number of fields that differ: one difference is 0.2, four are 0.5,
    /// and it approaches 1 as more fields differ.
    static func distance(_ differences: [FieldDifference]) -> Double {
        let count = Double(differences.count)
        return count / (count + 4)
    }

    /// The mappings closest to the request of `report`, closest first, at most ``limit``: its nearest
    /// tracks (exact mappings) and nearest rules (pattern mappings) in one list, as WireMock ranks every
    /// stub together. Ranked by the differences' weights (a method or URL weighs four of a header), so
    /// a pattern mapping whose one header differs comes before an exact mapping for another path.
    static func mappings(closestTo report: MissReport) -> [(id: String, distance: Double)] {
        var ranked: [(weight: Int, order: Int, id: String, distance: Double)] = []
        for near in report.nearest {
            guard let id = near.track.name else { continue }
            ranked.append((near.distance, ranked.count, id, distance(near.differences)))
        }
        for near in report.nearestRules {
            ranked.append((near.distance, ranked.count, near.rule.name, distance(near.differences)))
        }
        return ranked.sorted { ($0.weight, $0.order) < ($1.weight, $1.order) }.prefix(limit).map { ($0.id, $0.distance) }
    }

    /// `{"distance": d}`.
    static func matchResult(_ distance: Double) -> JSONValue {
        .object(["distance": .double(distance)])
    }
}
