import Foundation
import Tonearm

/// Stub-bundle rule files: a list of rules, each a URL (or path) regex with an optional method, a
/// status, headers and a response body — inline, or in a file next to the rules file. JSON, YAML and
/// Apple property lists share one schema (see docs/cassette-format.md).
///
/// Response files are read when the rules are loaded, relative to the rules file; a missing file is an
/// error naming the rule and the path, so a bundle never half-loads.
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
    public static func load(contentsOf url: URL, syntax: Syntax? = nil) throws(CassetteError) -> CassetteImport {
        let bytes = try FileAccess.read(url)
        let syntax = syntax ?? Syntax(pathExtension: url.pathExtension) ?? .json
        return try decode(bytes, syntax: syntax, file: url.path, baseDirectory: url.deletingLastPathComponent())
    }

    /// Reads rules from bytes; response files are resolved in `baseDirectory`.
    public static func decode(
        _ bytes: [UInt8], syntax: Syntax, file: String? = nil, baseDirectory: URL? = nil
    ) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        let node: DocumentNode = switch syntax {
        case .json: try JSONDocumentParser.parse(source)
        case .yaml: try YAMLDocumentReader.read(source)
        case .propertyList: try PropertyListDocumentReader.read(source)
        }
        let root = DocumentCursor(root: node, source: source)
        let list = if case .array = root.node.value { root } else { try root.required("rules", expected: "a list of rules") }
        var rules: [Rule] = []
        for (index, cursor) in try list.elements().enumerated() {
            rules.append(try RuleFileRuleReader.read(cursor, index: index, baseDirectory: baseDirectory))
        }
        return CassetteImport(cassette: Cassette(), rules: rules)
    }
}

/// Reads one rule of a rules file.
enum RuleFileRuleReader {
    static func read(_ cursor: DocumentCursor, index: Int, baseDirectory: URL?) throws(CassetteError) -> Rule {
        let name = try cursor.optionalString("name") ?? "rule \(index + 1)"
        let (pattern, target) = try patternAndTarget(cursor, name: name)
        let delay = try cursor.optionalInt("delayMilliseconds").map { Duration.milliseconds($0) }
        var bodyFile: String?
        let outcome: Track.Outcome
        if let error = try cursor.member("transportError") {
            let identifier = try error.string()
            guard let transportError = TransportError(identifier: identifier) else {
                throw error.error(expected: "a transport error such as timedOut or notConnectedToInternet", found: identifier.debugDescription)
            }
            outcome = .transportError(transportError)
        } else {
            let headers = try NativeTrackCodec.readHeaders(headerPairs(cursor.member("headers")))
            let body: [UInt8]
            (body, bodyFile) = try readBody(cursor, name: name, baseDirectory: baseDirectory)
            outcome = .response(Response(status: try cursor.optionalInt("status") ?? 200, headers: headers, body: body))
        }
        return Rule(
            name: name, method: try cursor.optionalString("method"), pattern: pattern, target: target,
            priority: try cursor.optionalInt("priority"), outcome: outcome, delay: delay, bodyFile: bodyFile)
    }

    private static func patternAndTarget(_ cursor: DocumentCursor, name: String) throws(CassetteError) -> (String, Rule.Target) {
        let url = try cursor.member("url"), path = try cursor.member("path")
        guard let chosen = url ?? path else { throw cursor.missing("url", expected: "a \"url\" or \"path\" regular expression") }
        let pattern = try chosen.string()
        do {
            _ = try Regex(pattern)
        } catch {
            throw chosen.error(expected: "a regular expression for rule \"\(name)\"", found: "\(pattern.debugDescription) (\(error))")
        }
        return (pattern, url != nil ? .url : .path)
    }

    /// Headers given as an object (`{Name: value}`) become [name, value] pairs; pairs are read as is.
    private static func headerPairs(_ cursor: DocumentCursor?) throws(CassetteError) -> DocumentCursor? {
        guard let cursor, case .object(let members) = cursor.node.value else { return cursor }
        let pairs = members.map { member in
            DocumentNode(value: .array([DocumentNode(value: .string(member.key), location: member.value.location), member.value]), location: member.value.location)
        }
        return DocumentCursor(node: DocumentNode(value: .array(pairs), location: cursor.node.location), path: cursor.path, source: cursor.source)
    }

    private static func readBody(_ cursor: DocumentCursor, name: String, baseDirectory: URL?) throws(CassetteError) -> ([UInt8], String?) {
        if let text = try cursor.optionalString("body") { return (Array(text.utf8), nil) }
        if let json = try cursor.member("json") { return (JSONOutput(json.node).compact(), nil) }
        guard let fileCursor = try cursor.member("file") else { return ([], nil) }
        let relative = try fileCursor.string()
        let url = URL(fileURLWithPath: relative, relativeTo: baseDirectory).standardizedFileURL
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw fileCursor.error(expected: "a response file for rule \"\(name)\"", found: "no readable file at \(url.path)")
        }
        return (Array(data), relative)
    }
}
