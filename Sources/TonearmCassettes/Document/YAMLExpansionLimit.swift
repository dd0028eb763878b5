// CYaml is the libyaml copy Yams is built on; Yams composes aliases by sharing nodes but hashes and
// walks them expanded, so the only place to bound the work before any tree exists is libyaml's events.
import CYaml
import Tonearm

/// Refuses YAML whose aliases would expand into more than a bounded document ("billion laughs"), before
/// Yams builds a tree from it.
///
/// One pass over libyaml's events works out, for every anchor, how many nodes and scalar bytes it stands
/// for and how deep it nests; an alias adds that much to its parent, so the expanded size is known in time
/// linear in the text. Syntax errors are left for Yams to report with its own messages.
enum YAMLExpansionLimit {
    /// At most this many nodes may be added by aliases, over the whole document.
    static let maximumAliasedNodes = 100_000
    /// At most this many scalar bytes may be added by aliases, over the whole document.
    static let maximumAliasedScalarBytes = 16 << 20
    /// The deepest nesting allowed once aliases are expanded: the same bound the JSON reader keeps.
    static let maximumDepth = JSONReader.maximumDepth

    /// What one node (an anchor's, or a collection's so far) expands to.
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

    private struct OpenCollection {
        var anchor: String?
        var extent = Extent()
    }

    /// Throws when `text` expands past a limit; returns quietly for YAML within them or with syntax errors.
    static func check(_ text: String, file: String?) throws(CassetteError) {
        var utf8 = Array(text.utf8)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        try utf8.withUnsafeMutableBufferPointer { (buffer) throws(CassetteError) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            try scan(&parser, file: file)
        }
    }

    private static func scan(_ parser: inout yaml_parser_t, file: String?) throws(CassetteError) {
        var anchors: [String: Extent] = [:]
        var open: [OpenCollection] = []
        var aliased = Extent(nodes: 0)
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return }
            defer { yaml_event_delete(&event) }
            let line = event.start_mark.line + 1
            let column = event.start_mark.column + 1
            func refuse(_ expected: String, found: String) -> CassetteError {
                CassetteError(file: file, line: line, column: column, expected: expected, found: found)
            }
            var finished: (anchor: String?, extent: Extent)?
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return
            case YAML_DOCUMENT_START_EVENT:
                anchors = [:]
            case YAML_SCALAR_EVENT:
                finished = (name(event.data.scalar.anchor), Extent(scalarBytes: event.data.scalar.length))
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let anchor = event.type == YAML_SEQUENCE_START_EVENT
                    ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                open.append(OpenCollection(anchor: name(anchor)))
                if open.count > maximumDepth {
                    throw refuse("at most \(maximumDepth) levels of nesting", found: "deeper nesting")
                }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let collection = open.popLast() else { return }
                var extent = collection.extent
                extent.height += 1
                finished = (collection.anchor, extent)
            case YAML_ALIAS_EVENT:
                guard let anchor = name(event.data.alias.anchor), let target = anchors[anchor] else { return }
                aliased.nodes += target.nodes
                aliased.scalarBytes += target.scalarBytes
                if aliased.nodes > maximumAliasedNodes {
                    throw refuse(
                        "aliases that expand to at most \(maximumAliasedNodes) nodes",
                        found: "alias *\(anchor) taking the document past that")
                }
                if aliased.scalarBytes > maximumAliasedScalarBytes {
                    throw refuse(
                        "aliases that expand to at most \(maximumAliasedScalarBytes) bytes of scalars",
                        found: "alias *\(anchor) taking the document past that")
                }
                if open.count + target.height > maximumDepth {
                    throw refuse(
                        "at most \(maximumDepth) levels of nesting",
                        found: "alias *\(anchor) nesting \(open.count + target.height) levels deep")
                }
                finished = (nil, target)
            default:
                break
            }
            guard let (anchor, extent) = finished else { continue }
            if let anchor { anchors[anchor] = extent }
            if !open.isEmpty { open[open.count - 1].extent.add(extent) }
        }
    }

    private static func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        anchor.map { String(cString: $0) }
    }
}
