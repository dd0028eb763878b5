import Foundation
import Tonearm

/// WireMock.Net JSON mappings (.NET): one mapping object per file, or an array of them (what
/// `GET /__admin/mappings` returns and `__admin/mappings/*.json` may hold), in WireMock.Net's own
/// shape: `{Guid, Title, Priority, Scenario, WhenStateIs, SetStateTo, Request: {Path, Url, Methods,
/// Headers, Params, Body}, Response: {StatusCode, Headers, Body, BodyAsJson, BodyAsBytes, BodyAsFile,
/// Delay, Fault}}`, with request fields matched by named matchers (`WildcardMatcher`, `ExactMatcher`,
/// `RegexMatcher`, `JsonMatcher`, `JsonPartialMatcher`…).
///
/// A mapping that names one request exactly (one method, a literal path, literal query parameters, no
/// header matchers, and an exact or JSON body or none) becomes a **track**; every other mapping becomes
/// a **rule**. What the engine cannot run (other matchers, negation, templating, webhooks, random
/// delays, proxying…) is an import warning naming its JSON path, never dropped silently.
public enum WireMockNetFormat {
    /// Reads a mapping file; `BodyAsFile` names are read from the file's own folder (WireMock.Net
    /// resolves them in its `__admin/mappings` folder), and must stay inside it.
    public static func load(contentsOf url: URL) throws(CassetteError) -> CassetteImport {
        try decode(FileAccess.read(url), file: url.path, bodyFiles: url.deletingLastPathComponent())
    }

    /// Reads mapping bytes; `file` names them in errors, `bodyFiles` is the folder `BodyAsFile` names
    /// are resolved in (none are read when `nil`).
    public static func decode(_ bytes: [UInt8], file: String? = nil, bodyFiles: URL? = nil) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        // WireMock.Net reads mappings with Json.NET, which accepts a comma before a closing bracket.
        let root = DocumentCursor(root: try JSONDocumentParser.parse(source, options: .init(allowsTrailingCommas: true)), source: source)
        let mappings: [DocumentCursor] = if case .array = root.node.value { try root.elements() } else { [root] }
        var reader = WireMockNetMappingReader(file: file, bodyFiles: bodyFiles)
        for (index, mapping) in mappings.enumerated() { try reader.read(mapping, index: index) }
        // At equal priority WireMock.Net answers with the most recently added mapping, as WireMock does.
        return CassetteImport(
            cassette: Cassette(entries: reader.entries), rules: reader.rules.reversed(), configuration: WireMockFormat.configuration,
            warnings: reader.warnings)
    }

    /// Whether a JSON top level is WireMock.Net's: a mapping (`Request` and `Response`, capitalised as
    /// .NET serialises them, where WireMock's Java mappings say `request`) or an array starting with one.
    static func claims(_ shape: FormatProbe.JSONShape?) -> Bool {
        switch shape {
        case .object(let keys)?: keys.contains("Request") && keys.contains("Response")
        case .array(let keys?)?: keys.contains("Request")
        default: false
        }
    }
}
