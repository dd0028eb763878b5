import Foundation
import Tonearm

/// The one schema for stubs: rule files (JSON, YAML, property lists), `TONEARM_STUBS`, and the
/// server's runtime stubs all describe their stubs with it, and this is its one decoder.
///
/// A document is a list of entries (or an object whose `rules` member is that list). Each entry says
/// which requests it answers (`url`/`path`/`pattern`, `method`, and `query`, `requestHeaders`,
/// `requestBody` conditions) and what it answers with (`status`, `headers`, `body`/`json`/`file`, or a
/// `transportError`), optionally after `delayMilliseconds`, and optionally only in one state of a
/// `scenario` (`{"name", "requiredState", "newState"}`). docs/cassette-format.md ("Stub schema") is
/// the reference. Every error is a ``CassetteError`` naming the source, line:column, JSON path and
/// what was expected there; a member the schema does not know is an error, with the nearest known name.
package enum StubSchema {
    /// How an entry's `url` member is read.
    package enum URLMeaning: Sendable {
        /// A regular expression searched in the normalised URL (rule files, the server).
        case pattern
        /// One exact URL; entries for the same method and URL queue up (`TONEARM_STUBS`).
        case exact
    }

    /// Where an entry's `file` body may be read from.
    package struct BodyFiles: Sendable {
        /// Relative `file` paths are resolved against this folder (the rule file's).
        package var baseDirectory: URL
        /// Files must lie inside this folder once symbolic links are resolved (by default the base
        /// directory; a server passes its root directory).
        package var root: URL

        /// Resolves against `baseDirectory` and confines to `root` (`baseDirectory` when `nil`).
        package init(baseDirectory: URL, root: URL? = nil) {
            self.baseDirectory = baseDirectory
            self.root = root ?? baseDirectory
        }
    }

    /// Decoding settings.
    package struct Options: Sendable {
        /// How `url` is read.
        package var urlMeaning: URLMeaning
        /// Where body files come from; `nil` refuses `file` members (a document with no folder).
        package var bodyFiles: BodyFiles?

        /// Settings for a document whose `url` means `urlMeaning` and whose files come from `bodyFiles`.
        package init(urlMeaning: URLMeaning = .pattern, bodyFiles: BodyFiles? = nil) {
            self.urlMeaning = urlMeaning
            self.bodyFiles = bodyFiles
        }
    }

    /// What a document describes: exact stubs as tracks (in declared order, so equal requests queue
    /// up) and rules.
    package struct Stubs: Sendable {
        /// Exact stubs (`TONEARM_STUBS`'s `url`), one track per entry, in declared order.
        package var tracks: [Track] = []
        /// Pattern rules, in declared order.
        package var rules: [Rule] = []
    }

    /// Every member an entry may have.
    static let entryKeys = [
        "name", "method", "url", "path", "pattern", "target", "query", "requestHeaders", "requestBody",
        "priority", "status", "headers", "body", "json", "file", "transportError", "error", "delayMilliseconds",
        "scenario",
    ]

    /// Decodes a stub document in `syntax`; `file` names the source in errors (a path, or e.g.
    /// `TONEARM_STUBS`).
    package static func decode(
        _ bytes: [UInt8], syntax: RuleFileFormat.Syntax, file: String?, options: Options
    ) throws(CassetteError) -> Stubs {
        let source = DocumentSource(file: file, bytes: bytes)
        let root = DocumentCursor(root: try StubDocumentSyntax.read(source, syntax: syntax), source: source)
        let list: DocumentCursor
        if case .array = root.node.value {
            list = root
        } else {
            try root.refuseUnknownMembers(known: ["rules"], owner: "the document", allowingExtensions: true)
            list = try root.required("rules", expected: "a list of rules")
        }
        var stubs = Stubs()
        for (index, cursor) in try list.elements().enumerated() {
            var reader = StubEntryReader(cursor: cursor, index: index, options: options)
            switch try reader.read() {
            case .track(let track): stubs.tracks.append(track)
            case .rule(let rule): stubs.rules.append(rule)
            }
        }
        return stubs
    }
}

/// Parses a document in any of the schema's syntaxes into the shared tree.
enum StubDocumentSyntax {
    static func read(_ source: DocumentSource, syntax: RuleFileFormat.Syntax) throws(CassetteError) -> DocumentNode {
        switch syntax {
        case .json: try JSONDocumentParser.parse(source)
        case .yaml: try YAMLDocumentReader.read(source)
        case .propertyList: try PropertyListDocumentReader.read(source)
        }
    }

    /// The body bytes a `json` member stands for: the JSON text exactly as written (white space outside
    /// strings removed) when the source is JSON, so numbers are never rounded and member order is
    /// kept; the tree written out in document order otherwise (YAML, property lists).
    static func jsonBody(_ cursor: DocumentCursor) -> [UInt8] {
        if case .offset(let start) = cursor.node.location,
            let range = JSONDocumentParser.valueRange(in: cursor.source.bytes, at: start)
        {
            return cursor.source.bytes.withUnsafeBufferPointer { JSONLayout.compact(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        return JSONOutput(cursor.node, source: cursor.source).compact()
    }
}
