import Tonearm
import Yams

/// Refuses YAML whose aliases would expand into more than a bounded document ("billion laughs").
///
/// Yams composes an alias by sharing the anchored node, so composing costs time linear in the text with
/// one exception: it hashes every mapping key, expanded, to find duplicates. So the check has two steps:
/// - ``checkKeys(_:file:)``, on the text before Yams sees it, refuses an alias that could stand in a
///   mapping key (an alias used as a key, or aliases together with complex keys), the one place where
///   composing would expand an alias;
/// - ``check(_:file:)``, on the composed tree before anything walks it expanded, works out for every
///   anchored node how many nodes and scalar bytes it stands for and how deep it nests, once, and adds
///   that for every further use, so the expanded size is known in time linear in the text.
enum YAMLExpansionLimit {
    /// At most this many nodes may be added by aliases, over the whole document.
    static let maximumAliasedNodes = 100_000
    /// At most this many scalar bytes may be added by aliases, over the whole document.
    static let maximumAliasedScalarBytes = 16 << 20
    /// The deepest nesting allowed once aliases are expanded: the same bound the JSON reader keeps.
    static let maximumDepth = JSONReader.maximumDepth

    // MARK: Before composing

    /// Throws when an alias could be used in a mapping key.
    ///
    /// The scan is over bytes and does not parse: it looks only where a node may start (after
    /// indentation, `- `, `? `, `:`, `[`, `{` or `,`), so it may see an alias or a key inside a quoted
    /// or block scalar. That can refuse a document only when the same text has both an alias-like `*name`
    /// and an explicit `?` key or a flow collection used as a key (`[a]: b`), or an alias-like word
    /// followed by a colon (`*name :`); cassettes and stub files written by tools have none of these.
    static func checkKeys(_ text: String, file: String?) throws(CassetteError) {
        var scan = KeyScan()
        scan.run(Array(text.utf8))
        if let key = scan.aliasKey {
            throw CassetteError(
                file: file, line: key.line, column: key.column, expected: "an alias outside mapping keys",
                found: "an alias used as a mapping key")
        }
        if scan.sawAlias, let key = scan.complexKey {
            throw CassetteError(
                file: file, line: key.line, column: key.column,
                expected: "complex mapping keys (`?` or a collection as a key) only in YAML without aliases",
                found: "a complex key in a document that uses aliases")
        }
    }

    /// One pass over the text's bytes, tracking only where a node may start.
    private struct KeyScan {
        struct Position {
            var line: Int
            var column: Int
        }

        private(set) var sawAlias = false
        private(set) var aliasKey: Position?
        private(set) var complexKey: Position?

        mutating func run(_ bytes: [UInt8]) {
            var index = 0
            var line = 1
            var lineStart = 0
            var nodeMayStart = true
            func position(_ offset: Int) -> Position { Position(line: line, column: offset - lineStart + 1) }
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\n"):
                    line += 1
                    lineStart = index + 1
                    nodeMayStart = true
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    break
                case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","):
                    nodeMayStart = true
                    index += 1
                    continue
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if complexKey == nil, Self.colonFollows(bytes, after: index + 1) { complexKey = position(index) }
                    nodeMayStart = false
                case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
                    let separated = index + 1 == bytes.count || Self.isBlank(bytes[index + 1])
                    if byte == UInt8(ascii: "?"), nodeMayStart, separated, complexKey == nil { complexKey = position(index) }
                    // `"a":*b` starts a node in a flow mapping, so after a colon one may always start.
                    nodeMayStart = separated || byte == UInt8(ascii: ":")
                case UInt8(ascii: "*") where nodeMayStart && index + 1 < bytes.count && Self.isAnchorByte(bytes[index + 1]):
                    sawAlias = true
                    var end = index + 1
                    while end < bytes.count, Self.isAnchorByte(bytes[end]) { end += 1 }
                    if aliasKey == nil, Self.colonFollows(bytes, after: end) { aliasKey = position(index) }
                    nodeMayStart = false
                    index = end
                    continue
                default:
                    nodeMayStart = false
                }
                index += 1
            }
        }

        /// libyaml's anchor names: ASCII letters, digits, `-` and `_`.
        private static func isAnchorByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }

        private static func isBlank(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
        }

        /// A `:` after spaces or tabs on the same line: what ends an implicit key.
        private static func colonFollows(_ bytes: [UInt8], after offset: Int) -> Bool {
            var index = offset
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            return index < bytes.count && bytes[index] == UInt8(ascii: ":")
        }
    }

    // MARK: After composing

    /// Throws when `root`, composed by `parser`, would be larger or deeper than allowed with every alias
    /// expanded.
    ///
    /// An alias is composed as a copy of its anchored node, carrying the same ``Anchor`` instance (one per
    /// anchor written in the text), so the instance identifies the node: its first appearance (in
    /// document order, the definition) is measured, and every later one is an alias adding the measured
    /// extent. Nodes hold their anchor weakly and the parser keeps every one it made, so the parser is
    /// kept alive for the walk.
    static func check(_ root: Node, composedBy parser: Parser, file: String?) throws(CassetteError) {
        defer { withExtendedLifetime(parser) {} }
        var walk = ExpansionWalk(file: file)
        _ = try walk.extent(of: root, depth: 0, parent: nil)
    }

    /// What one node expands to.
    private struct Extent {
        var nodes = 1
        var scalarBytes = 0
        /// Levels of collections, counting this node's own.
        var height = 0

        mutating func add(_ child: Extent) {
            nodes += child.nodes
            scalarBytes += child.scalarBytes
            height = max(height, child.height)
        }
    }

    private struct ExpansionWalk {
        let file: String?
        var measured: [ObjectIdentifier: Extent] = [:]
        var aliased = Extent(nodes: 0)

        /// `parent` is the position of the collection holding `node`: where an alias is reported, since
        /// its copy carries the anchor's position, not its own.
        mutating func extent(of node: Node, depth: Int, parent: Mark?) throws(CassetteError) -> Extent {
            let anchor = node.anchor
            let identity = anchor.map(ObjectIdentifier.init)
            if let anchor, let identity, let known = measured[identity] {
                try addAlias(known, named: anchor.rawValue, depth: depth, at: parent ?? node.mark)
                return known
            }
            var extent = Extent()
            switch node {
            case .scalar(let scalar):
                extent.scalarBytes = scalar.string.utf8.count
            case .sequence(let sequence):
                try checkLiteralDepth(depth + 1, at: node.mark)
                for element in sequence { extent.add(try self.extent(of: element, depth: depth + 1, parent: node.mark)) }
                extent.height += 1
            case .mapping(let mapping):
                try checkLiteralDepth(depth + 1, at: node.mark)
                for (key, value) in mapping {
                    extent.add(try self.extent(of: key, depth: depth + 1, parent: node.mark))
                    extent.add(try self.extent(of: value, depth: depth + 1, parent: node.mark))
                }
                extent.height += 1
            case .alias:
                break
            }
            if let identity { measured[identity] = extent }
            return extent
        }

        private func refusal(_ expected: String, found: String, at mark: Mark?) -> CassetteError {
            CassetteError(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, expected: expected, found: found)
        }

        private func checkLiteralDepth(_ depth: Int, at mark: Mark?) throws(CassetteError) {
            guard depth > maximumDepth else { return }
            throw refusal("at most \(maximumDepth) levels of nesting", found: "deeper nesting", at: mark)
        }

        private mutating func addAlias(_ target: Extent, named anchor: String, depth: Int, at mark: Mark?) throws(CassetteError) {
            aliased.nodes += target.nodes
            aliased.scalarBytes += target.scalarBytes
            if aliased.nodes > maximumAliasedNodes {
                throw refusal(
                    "aliases that expand to at most \(maximumAliasedNodes) nodes",
                    found: "alias *\(anchor) taking the document past that", at: mark)
            }
            if aliased.scalarBytes > maximumAliasedScalarBytes {
                throw refusal(
                    "aliases that expand to at most \(maximumAliasedScalarBytes) bytes of scalars",
                    found: "alias *\(anchor) taking the document past that", at: mark)
            }
            if depth + target.height > maximumDepth {
                throw refusal(
                    "at most \(maximumDepth) levels of nesting",
                    found: "alias *\(anchor) nesting \(depth + target.height) levels deep", at: mark)
            }
        }
    }
}
