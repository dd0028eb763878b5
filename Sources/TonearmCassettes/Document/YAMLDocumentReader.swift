import Foundation
import Yams

/// Reads YAML (with jpsim/Yams) into a ``DocumentNode`` tree with lines and columns.
///
/// Core-schema tags are resolved (null, booleans, numbers); `!!binary` scalars become bytes; other
/// tags, such as Ruby's local `!binary`, are kept on the node for the importer to interpret. Aliases are
/// expanded, within ``YAMLExpansionLimit``'s bounds.
enum YAMLDocumentReader {
    static func read(_ source: DocumentSource) throws(CassetteError) -> DocumentNode {
        guard let root = try readIfPresent(source) else {
            throw CassetteError(file: source.file, line: 1, column: 1, expected: "a YAML document", found: "an empty file")
        }
        return root
    }

    /// The document, or `nil` when the text holds none (empty, or only comments and white space).
    static func readIfPresent(_ source: DocumentSource) throws(CassetteError) -> DocumentNode? {
        guard let text = String(validating: source.bytes, as: UTF8.self) else {
            throw CassetteError(file: source.file, expected: "UTF-8 text", found: "bytes that are not UTF-8")
        }
        // Yams hashes mapping keys expanded while it composes: no alias may reach a key.
        try YAMLExpansionLimit.checkKeys(text, file: source.file)
        let root: Node?
        let parser: Parser
        do {
            parser = try Parser(yaml: text)
            root = try parser.singleRoot()
        } catch let error as YamlError {
            throw Self.error(error, file: source.file)
        } catch {
            throw CassetteError(file: source.file, expected: "a YAML document", found: "\(error)")
        }
        guard let root else { return nil }
        // Before anything walks the tree expanded, so an alias bomb costs one linear pass.
        try YAMLExpansionLimit.check(root, composedBy: parser, file: source.file)
        return try convert(root, file: source.file)
    }

    private static func convert(_ node: Node, file: String?) throws(CassetteError) -> DocumentNode {
        let location = node.mark.map { SourceLocation.lineColumn(line: $0.line, column: $0.column) } ?? .unknown
        switch node {
        case .scalar(let scalar):
            return DocumentNode(value: try scalarValue(scalar, location: location, file: file), location: location, tag: customTag(node.tag))
        case .sequence(let sequence):
            var elements: [DocumentNode] = []
            for element in sequence { elements.append(try convert(element, file: file)) }
            return DocumentNode(value: .array(elements), location: location, tag: customTag(node.tag))
        case .mapping(let mapping):
            var members: [DocumentNode.Member] = []
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw located(key, file: file, expected: "a plain mapping key", found: "a collection used as a key")
                }
                members.append(DocumentNode.Member(key: keyScalar.string, value: try convert(value, file: file)))
            }
            return DocumentNode(value: .object(members), location: location, tag: customTag(node.tag))
        case .alias:
            throw located(node, file: file, expected: "a value", found: "an unresolved alias")
        }
    }

    private static func scalarValue(_ scalar: Node.Scalar, location: SourceLocation, file: String?) throws(CassetteError) -> DocumentNode.Value {
        // `Node.tag`, not `scalar.tag`: only the node resolves a plain scalar's implicit tag, so `body: null`
        // is null rather than the text "null".
        switch Tag.Name(rawValue: Node.scalar(scalar).tag.rawValue) {
        case .null: return .null
        case .bool: return Node.scalar(scalar).bool.map(DocumentNode.Value.bool) ?? .string(scalar.string)
        case .int, .float: return .number(scalar.string)
        case .binary:
            guard let bytes = Base64.decode(scalar.string, ignoringWhitespace: true) else {
                let (line, column) = lineColumn(location)
                throw CassetteError(file: file, line: line, column: column, expected: "base64 data in a !!binary scalar")
            }
            return .binary(bytes)
        default: return .string(scalar.string)
        }
    }

    /// The tag when it is not a core-schema tag, e.g. `!binary`.
    private static func customTag(_ tag: Tag) -> String? {
        let name = tag.rawValue
        return name.hasPrefix("tag:yaml.org,2002:") || name.isEmpty || name == "!" ? nil : name
    }

    private static func located(_ node: Node, file: String?, expected: String, found: String) -> CassetteError {
        CassetteError(file: file, line: node.mark?.line, column: node.mark?.column, expected: expected, found: found)
    }

    private static func lineColumn(_ location: SourceLocation) -> (Int?, Int?) {
        if case .lineColumn(let line, let column) = location { return (line, column) }
        return (nil, nil)
    }

    private static func error(_ error: YamlError, file: String?) -> CassetteError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return CassetteError(file: file, line: mark.line, column: mark.column, expected: "valid YAML", found: problem)
        case .reader(let problem, let offset, _, _):
            return CassetteError(file: file, expected: "readable YAML text", found: offset.map { "\(problem) at byte \($0)" } ?? problem)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return CassetteError(
                file: file, line: context.mark.line, column: context.mark.column,
                expected: "unique mapping keys", found: "duplicates \(duplicates.joined(separator: ", "))")
        default:
            return CassetteError(file: file, expected: "valid YAML", found: "\(error)")
        }
    }
}
