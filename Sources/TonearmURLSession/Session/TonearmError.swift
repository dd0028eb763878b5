import Foundation
import Tonearm
import TonearmCassettes

/// Why a Tonearm session could not be set up or saved, with enough context to fix it.
public enum TonearmError: Error, Sendable, CustomStringConvertible {
    /// `TONEARM_RECORD` (or a mode string) names no ``RecordMode``.
    case invalidRecordMode(String)
    /// `TONEARM_STRATEGY` names no strategy.
    case invalidStrategy(String)
    /// A cassette or rules file could not be read or saved; the error names the file and position.
    case cassette(CassetteError)
    /// A stub or rule pattern is not a valid regular expression.
    case rule(RuleError)
    /// A stub's response body could not be produced, e.g. a missing file or a value that does not encode.
    case stubBody(stub: String, reason: String)
    /// An environment variable holds JSON that does not decode; `detail` says where and what was expected.
    case environment(variable: String, detail: String)

    /// A message naming what failed and where.
    public var description: String {
        switch self {
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
        }
    }
}

extension TonearmError: LocalizedError {
    /// The same text as ``description``, so `localizedDescription` is readable too.
    public var errorDescription: String? { description }
}
