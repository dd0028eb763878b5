import Tonearm
import TonearmServer

/// WireMock's global settings (`/__admin/settings`): a fixed delay and a random delay added to every
/// mapping's answer, and `extended`, values for extensions, which Tonearm stores and returns as WireMock
/// does (it has no extensions to hand them to). A `POST` or `PUT` replaces them all, as in the jar.
struct WireMockGlobalSettings: Sendable {
    /// Milliseconds added to every mapping's answer.
    var fixedDelay: Int?
    /// A delay drawn per answer, with the JSON it was read from (returned as sent).
    var delayDistribution: (distribution: WireMockDelayDistribution, json: JSONValue)?
    /// Extension settings, kept as sent.
    var extended: JSONValue?

    /// The settings of a `POST`/`PUT /__admin/settings` body's members (the bare object, or the Java
    /// client's `{"settings": {...}}`'s).
    init(members: [JSONMember]) throws(WireMockError) {
        for member in members {
            if case .null = member.value { continue }
            switch member.key {
            case "fixedDelay":
                guard let value = member.value.intValue, value >= 0 else {
                    throw .invalid("/fixedDelay", "Error parsing JSON", detail: "fixedDelay must be a number of milliseconds")
                }
                fixedDelay = value
            case "delayDistribution":
                do throws(WireMockError) {
                    delayDistribution = (try WireMockDelayDistribution(member.value), member.value)
                } catch {
                    // The distribution's reader speaks of a mapping's `/response/delayDistribution`.
                    var located = error
                    located.pointer = located.pointer.map { $0.replacingOccurrences(of: "/response", with: "") }
                    throw located
                }
            case "extended":
                guard case .object = member.value else {
                    throw .invalid("/extended", "Error parsing JSON", detail: "extended must be an object")
                }
                extended = member.value
            default:
                throw .invalid(
                    "/\(member.key)", "Unsupported setting",
                    detail: "\(member.key) is not a WireMock setting (fixedDelay, delayDistribution, extended); nothing was changed")
            }
        }
    }

    /// No settings.
    init() {}

    /// The delay they add to one answer: the fixed one plus one drawn from the distribution.
    func delay() -> Duration {
        var total = Duration.zero
        if let fixedDelay { total += .milliseconds(fixedDelay) }
        if let drawn = delayDistribution?.distribution.sample() { total += drawn }
        return total
    }

    /// As `GET /__admin/settings` lists them.
    var json: JSONValue {
        .object(["fixedDelay": fixedDelay.map(JSONValue.integer), "delayDistribution": delayDistribution?.json, "extended": extended])
    }
}
