import Foundation
import Tonearm

/// Stub-bundle rule files: a list of rules, each a URL (or path) regex with an optional method, query,
/// header and JSON-body conditions, a status, headers and a response body — inline, or in a file next
/// to the rules file. JSON, YAML and Apple property lists share one schema with `TONEARM_STUBS`
/// (`StubSchema`; docs/cassette-format.md, "Stub schema").
///
/// Response files are read when the rules are loaded, relative to the rules file and confined to its
/// folder; a missing or escaping file is an error naming the rule and the path, so a bundle never
/// half-loads.
public enum RuleFileFormat {
    /// The syntax a rules file is written in.
    public enum Syntax: String, Sendable, CaseIterable {
        /// JSON.
        case json
        /// YAML.
        case yaml
        /// An Apple property list (XML or binary).
        case propertyList

        /// The syntax for a file extension, or `nil`.
        public init?(pathExtension: String) {
            switch pathExtension.lowercased() {
            case "json": self = .json
            case "yaml", "yml": self = .yaml
            case "plist": self = .propertyList
            default: return nil
            }
        }
    }

    /// Reads a rules file, resolving response files relative to it.
    ///
    /// - Parameters:
    ///   - url: The rules file.
    ///   - syntax: JSON, YAML or property list; from the file's extension when `nil`, JSON when that says nothing.
    ///   - bodyRoot: The folder response files must lie in (symbolic links resolved); the rules file's own
    ///     folder when `nil`. A server passes its root directory.
    public static func load(contentsOf url: URL, syntax: Syntax? = nil, bodyRoot: URL? = nil) throws(CassetteError) -> CassetteImport {
        let bytes = try FileAccess.read(url)
        let syntax = syntax ?? Syntax(pathExtension: url.pathExtension) ?? .json
        return try decode(
            bytes, syntax: syntax, file: url.path, baseDirectory: url.deletingLastPathComponent(), bodyRoot: bodyRoot)
    }

    /// Reads rules from bytes (the schema in docs/cassette-format.md, "Stub schema").
    ///
    /// Response files are resolved in `baseDirectory` and must lie inside `bodyRoot` (by default
    /// `baseDirectory`); without a `baseDirectory`, a `file` body is an error.
    public static func decode(
        _ bytes: [UInt8], syntax: Syntax, file: String? = nil, baseDirectory: URL? = nil, bodyRoot: URL? = nil
    ) throws(CassetteError) -> CassetteImport {
        let bodyFiles = baseDirectory.map { StubSchema.BodyFiles(baseDirectory: $0, root: bodyRoot) }
        let stubs = try StubSchema.decode(
            bytes, syntax: syntax, file: file, options: StubSchema.Options(urlMeaning: .pattern, bodyFiles: bodyFiles))
        return CassetteImport(cassette: Cassette(tracks: stubs.tracks), rules: stubs.rules)
    }
}
