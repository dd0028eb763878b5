import Foundation
import Tonearm
import TonearmCassettes
import TonearmReplay

/// Why the server could not start, load a cassette or save, with the file or value at fault.
public enum ServerError: Error, Sendable, CustomStringConvertible {
    /// A cassette or rule file did not load, or a recording could not be saved.
    case cassette(CassetteError)
    /// A rule's pattern does not compile.
    case rule(RuleError)
    /// The cassette is in a format Tonearm reads but does not write, and the mode records into it.
    case readOnlyCassette(file: String, format: String)
    /// The address could not be bound.
    case bind(address: String, port: Int, reason: String)
    /// A value given to the server (a host, a mode, a strategy) is not valid.
    case invalid(what: String, value: String, expected: String)

    /// A message naming what failed and where.
    public var description: String {
        switch self {
        case .cassette(let error): "cannot use cassette: \(error)"
        case .rule(let error): "invalid rule: \(error)"
        case .readOnlyCassette(let file, let format):
            "\(file): Tonearm reads \(format) cassettes but does not write them, so it cannot record into this one; "
                + "convert it first (tonearm convert \(file) OUT.json) or record into a .json or .har file"
        case .bind(let address, let port, let reason): "cannot listen on \(address):\(port): \(reason)"
        case .invalid(let what, let value, let expected): "\(what) \(value.debugDescription) is not valid; expected \(expected)"
        }
    }
}

extension ServerError {
    /// The server's error for a failure to load or save a cassette session.
    init(loading error: TonearmError) {
        if let cassette = error.cassetteError {
            self = .cassette(cassette)
        } else if let rule = error.ruleError {
            self = .rule(rule)
        } else {
            self = .invalid(what: "cassette session", value: error.identifier, expected: error.description)
        }
    }
}
