import Foundation
import Tonearm

/// Stub bundles as teams already keep them: a `<name>.bundle` folder holding `stubsRules.plist` (or
/// `stubRules.plist`, or `stubsMapping.plist`), an array of `{matching_url, json_file | inline_response,
/// status_code, http_method}` dictionaries, and the JSON files the rules name (without their extension).
///
/// Each entry becomes a `Rule` (see `StubBundleEntryReader` for the keys): `matching_url` is a
/// regular expression searched in the normalised absolute URL, `json_file` names `<json_file>.json` in
/// the bundle, `status_code` defaults to 200 and a missing `http_method` answers any method. Rules are
/// tried in file order. Loading is all-or-nothing: a bad key, regular expression or missing JSON file is
/// one ``CassetteError`` naming the plist, the entry (`$[3].json_file`) and what was expected.
/// docs/team-formats.md has examples.
public enum StubBundleFormat {
    /// The rule-list names looked for in a bundle folder, in order.
    public static let ruleFileNames = ["stubsRules.plist", "stubRules.plist", "stubsMapping.plist"]

    /// The rule list inside the bundle folder `folder`, or `nil` when it has none.
    public static func ruleFile(inBundle folder: URL) -> URL? {
        ruleFileNames.map { folder.appendingPathComponent($0) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Reads a bundle folder, or its rule-list plist directly; JSON files are read from the plist's folder
    /// and must lie inside it.
    public static func load(contentsOf url: URL) throws(CassetteError) -> CassetteImport {
        var isDirectory: ObjCBool = false
        let plist: URL
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            guard let found = ruleFile(inBundle: url) else {
                throw CassetteError(
                    file: url.path, expected: "a stub bundle holding \(ruleFileNames.joined(separator: " or "))",
                    found: "neither")
            }
            plist = found
        } else {
            plist = url
        }
        return try decode(FileAccess.read(plist), file: plist.path, bundle: plist.deletingLastPathComponent())
    }

    /// Reads a rule-list plist (XML or binary) whose JSON files live in `bundle`.
    public static func decode(_ bytes: [UInt8], file: String?, bundle: URL) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        let root = DocumentCursor(root: try PropertyListDocumentReader.read(source), source: source)
        guard case .array = root.node.value else {
            throw root.error(expected: "an array of {matching_url, json_file, status_code, http_method} rules")
        }
        var rules: [Rule] = []
        for (index, entry) in try root.elements().enumerated() {
            rules.append(try StubBundleEntryReader(cursor: entry, index: index, bodyFiles: StubSchema.BodyFiles(baseDirectory: bundle)).read())
        }
        return CassetteImport(cassette: Cassette(name: bundle.lastPathComponent), rules: rules)
    }

    /// Whether `bytes` is a property list in this format: an array whose first element has a `matching_url`.
    static func isRuleList(_ bytes: [UInt8]) -> Bool {
        guard let list = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? [Any],
            let first = list.first as? [String: Any]
        else { return false }
        return first["matching_url"] != nil
    }
}
