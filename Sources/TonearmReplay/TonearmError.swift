import Foundation
import Tonearm
import TonearmCassettes

/// Why a Tonearm session could not be set up or saved, with enough context to fix it.
///
/// New setup steps bring new failures, so this is a struct with static members rather than an enum:
/// errors are thrown as `.invalidRecordMode(raw)` or `.cassette(error)` as enum cases would be; catch
/// `TonearmError` and read ``identifier``, ``cassetteError`` and ``ruleError`` instead of matching cases.
public struct TonearmError: Error, Sendable, CustomStringConvertible {
    private enum Storage: Sendable {
        case invalidRecordMode(String)
        case invalidStrategy(String)
        case cassette(CassetteError)
        case rule(RuleError)
        case stubBody(stub: String, reason: String)
        case environment(variable: String, detail: String)
        case launchArgument(argument: String, detail: String)
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// `TONEARM_RECORD` (or a mode string) names no ``RecordMode``.
    public static func invalidRecordMode(_ raw: String) -> TonearmError { TonearmError(.invalidRecordMode(raw)) }
    /// `TONEARM_STRATEGY` names no strategy.
    public static func invalidStrategy(_ raw: String) -> TonearmError { TonearmError(.invalidStrategy(raw)) }
    /// A cassette or rules file could not be read or saved; the error names the file and position.
    public static func cassette(_ error: CassetteError) -> TonearmError { TonearmError(.cassette(error)) }
    /// A stub or rule pattern is not a valid regular expression.
    public static func rule(_ error: RuleError) -> TonearmError { TonearmError(.rule(error)) }
    /// A stub's response body could not be produced, e.g. a missing file or a value that does not encode.
    public static func stubBody(stub: String, reason: String) -> TonearmError { TonearmError(.stubBody(stub: stub, reason: reason)) }
    /// An environment variable holds JSON that does not decode; `detail` says where and what was expected.
    public static func environment(variable: String, detail: String) -> TonearmError {
        TonearmError(.environment(variable: variable, detail: detail))
    }

    /// A launch argument (`STUB_API_CALLS_<name>`, `-TONEARM_CASSETTE path`) cannot be used; `detail`
    /// says why.
    public static func launchArgument(_ argument: String, detail: String) -> TonearmError {
        TonearmError(.launchArgument(argument: argument, detail: detail))
    }

    /// What failed, named like the static member that made the error: `invalidRecordMode`,
    /// `invalidStrategy`, `cassette`, `rule`, `stubBody`, `environment` or `launchArgument`.
    public var identifier: String {
        switch storage {
        case .invalidRecordMode: "invalidRecordMode"
        case .invalidStrategy: "invalidStrategy"
        case .cassette: "cassette"
        case .rule: "rule"
        case .stubBody: "stubBody"
        case .environment: "environment"
        case .launchArgument: "launchArgument"
        }
    }

    /// The cassette error, with its file and position, for ``cassette(_:)``; `nil` otherwise.
    public var cassetteError: CassetteError? {
        if case .cassette(let error) = storage { return error }
        return nil
    }

    /// The rule error, with the rule and its pattern, for ``rule(_:)``; `nil` otherwise.
    public var ruleError: RuleError? {
        if case .rule(let error) = storage { return error }
        return nil
    }

    /// A message naming what failed and where.
    public var description: String {
        switch storage {
        case .invalidRecordMode(let raw):
            "\(RecordMode.environmentVariable)=\(raw.debugDescription) is not a record mode; use one of "
                + RecordMode.allCases.map(\.rawValue).joined(separator: ", ")
        case .invalidStrategy(let raw):
            "\(raw.debugDescription) is not a strategy; use one of "
                + StrategyHint.allCases.map(\.rawValue).joined(separator: ", ")
        case .cassette(let error):
            "cannot use cassette: \(error)"
        case .rule(let error):
            "invalid stub rule: \(error)"
        case .stubBody(let stub, let reason):
            "stub \(stub): \(reason)"
        case .environment(let variable, let detail):
            "environment variable \(variable): \(detail)"
        case .launchArgument(let argument, let detail):
            "launch argument \(argument): \(detail)"
        }
    }
}

extension TonearmError: LocalizedError {
    /// The same text as ``description``, so `localizedDescription` is readable too.
    public var errorDescription: String? { description }
}
