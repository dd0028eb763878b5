import ArgumentParser
import TonearmCassettes

/// Shared helpers for the cassette commands (and the `tonearm` executable's others: bench, serve, ca).
package enum CLIFormat {
    /// The format `name` given to `option`, one of `formats`; `nil` when the option was not given.
    package static func parse(_ name: String?, option: String, among formats: [CassetteFormat] = CassetteFormat.all) throws -> CassetteFormat? {
        guard let name else { return nil }
        guard let format = CassetteFormat(name: name), formats.contains(format) else {
            throw ValidationError("\(option) \(name): expected one of \(formats.map(\.name).joined(separator: ", "))")
        }
        return format
    }

    /// The replay strategy `--strategy` names.
    package static func strategy(_ name: String) throws -> StrategyHint {
        guard let hint = StrategyHint(rawValue: name) else {
            throw ValidationError("--strategy \(name): expected one of \(StrategyHint.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return hint
    }

    /// Writes `line` to standard error.
    package static func printError(_ line: String) {
        StandardStream.error.writeLine(line)
    }
}
