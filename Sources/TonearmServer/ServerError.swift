import Foundation
import Tonearm
import TonearmCassettes
import TonearmReplay

/// Why the server could not start, load a cassette or save, with the file or value at fault.
///
/// A struct over private storage rather than an enum, so that new reasons can be added without breaking
/// users' exhaustive `switch`es (docs/public-api.md): build one with the static members, read it with
/// ``description``, ``identifier`` and the typed accessors.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    private enum Storage: Sendable {
        /// A cassette or rule error, held as the session's error type, which already reads them.
        case loading(TonearmError)
        case readOnlyCassette(file: String, format: String)
        case bind(address: String, port: Int, reason: String)
        case invalid(what: String, value: String, expected: String)
        case tls(what: String, file: String?, reason: String)
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// A cassette or rule file did not load, or a recording could not be saved.
    public static func cassette(_ error: CassetteError) -> ServerError { ServerError(.loading(.cassette(error))) }
    /// A rule's pattern does not compile.
    public static func rule(_ error: RuleError) -> ServerError { ServerError(.loading(.rule(error))) }
    /// The cassette is in a format Tonearm reads but does not write, and the mode records into it.
    public static func readOnlyCassette(file: String, format: String) -> ServerError {
        ServerError(.readOnlyCassette(file: file, format: format))
    }
    /// The address could not be bound.
    public static func bind(address: String, port: Int, reason: String) -> ServerError {
        ServerError(.bind(address: address, port: port, reason: reason))
    }
    /// A value given to the server (a host, a mode, a strategy) is not valid.
    public static func invalid(what: String, value: String, expected: String) -> ServerError {
        ServerError(.invalid(what: what, value: value, expected: expected))
    }
    /// A certificate, key or certificate authority could not be made, read or written: `what` was being
    /// done (`"create the certificate authority"`), with `file`, and why it failed.
    public static func tls(_ what: String, file: String?, reason: String) -> ServerError {
        ServerError(.tls(what: what, file: file, reason: reason))
    }

    /// The reason's name: `cassette`, `rule`, `readOnlyCassette`, `bind` or `invalid` (more may come).
    public var identifier: String {
        switch storage {
        case .loading(let error): error.identifier
        case .readOnlyCassette: "readOnlyCassette"
        case .bind: "bind"
        case .invalid: "invalid"
        case .tls: "tls"
        }
    }

    /// The cassette error, when a cassette or rule file did not load or could not be saved.
    public var cassetteError: CassetteError? { loading?.cassetteError }

    /// The rule error, when a rule's pattern does not compile.
    public var ruleError: RuleError? { loading?.ruleError }

    private var loading: TonearmError? {
        if case .loading(let error) = storage { return error }
        return nil
    }

    /// A message naming what failed and where.
    public var description: String {
        switch storage {
        case .loading(let error):
            if let cassette = error.cassetteError { "cannot use cassette: \(cassette)" }
            else if let rule = error.ruleError { "invalid rule: \(rule)" }
            else { error.description }
        case .readOnlyCassette(let file, let format):
            "\(file): Tonearm reads \(format) cassettes but does not write them, so it cannot record into this one; "
                + "convert it first (tonearm convert \(file) OUT.json) or record into a .json or .har file"
        case .bind(let address, let port, let reason): "cannot listen on \(address):\(port): \(reason)"
        case .invalid(let what, let value, let expected): "\(what) \(value.debugDescription) is not valid; expected \(expected)"
        case .tls(let what, let file, let reason): "cannot \(what)\(file.map { " (\($0))" } ?? ""): \(reason)"
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
