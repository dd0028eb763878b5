import Foundation
import Tonearm

/// Reads one entry of a stub bundle's rule list (`stubsRules.plist`, see ``StubBundleFormat``) into a
/// ``Rule``, with the stub schema's own checks: unknown keys are refused with the nearest known one,
/// `matching_url` goes through ``LinearPattern``, and `json_file` through the body-file confinement of
/// rule files.
///
/// | key | meaning |
/// | --- | --- |
/// | `matching_url` | a regular expression searched in the normalised absolute URL (required) |
/// | `json_file` | the response body: `<json_file>.json` in the bundle (empty body when absent) |
/// | `inline_response` | the response body written in the entry: text, or a dictionary/array as JSON (when there is no `json_file`, or its file is not in the bundle) |
/// | `status_code` | the response status, a number or a numeric string; 200 when absent |
/// | `http_method` | the method answered (case-insensitive); any method when absent |
struct StubBundleEntryReader {
    /// Every key an entry may have.
    static let keys = ["matching_url", "json_file", "inline_response", "status_code", "http_method"]

    let cursor: DocumentCursor
    let index: Int
    let bodyFiles: StubSchema.BodyFiles

    /// `rule N` (1-based, as the stub schema counts) with the array index errors show in their path.
    private var label: String { "rule \(index + 1) (matching_url \((try? cursor.optionalString("matching_url")) ?? "?"))" }

    func read() throws(CassetteError) -> Rule {
        try cursor.refuseUnknownMembers(known: Self.keys, owner: "rule \(index + 1)")
        let urlCursor = try cursor.required("matching_url", expected: "a regular expression over the absolute URL")
        let pattern = try urlCursor.string()
        try urlCursor.checkRegex(pattern, owner: label)

        let method = try cursor.optionalString("http_method").map { $0.uppercased() }
        let status = try readStatus()
        var headers: [HeaderField] = []
        var body: [UInt8] = []
        var bodyFile: String?
        let inlineCursor = try cursor.member("inline_response")
        if let file = try cursor.member("json_file") {
            let name = try file.string()
            let relative = name.lowercased().hasSuffix(".json") ? name : name + ".json"
            // With both, the stubbing code these bundles come from answers with the file when the
            // bundle has it, else with the inline response (often written empty beside the file).
            if inlineCursor == nil || FileManager.default.fileExists(atPath: bodyFiles.baseDirectory.appendingPathComponent(relative).path) {
                body = try BodyFileConfinement.read(relative, at: file, bodyFiles, owner: label)
                bodyFile = relative
                headers.append(HeaderField("Content-Type", "application/json"))
            }
        }
        if let inline = inlineCursor, bodyFile == nil {
            if case .string(let text) = inline.node.value {
                body = Array(text.utf8)
            } else {
                body = JSONOutput(inline.node).compact()
                headers.append(HeaderField("Content-Type", "application/json"))
            }
        }
        return Rule(
            name: "rule \(index + 1)", method: method, pattern: pattern, target: .url,
            response: Response(status: status, headers: headers, body: body), bodyFile: bodyFile)
    }

    /// `status_code`: an integer, or a string of digits (property lists often hold numbers as text).
    private func readStatus() throws(CassetteError) -> Int {
        guard let given = try cursor.member("status_code") else { return 200 }
        let status = try given.int()
        guard RecordedLimits.statuses.contains(status) else {
            throw given.error(
                expected: "a status from \(RecordedLimits.statuses.lowerBound) to \(RecordedLimits.statuses.upperBound) for \(label)",
                found: String(status))
        }
        return status
    }
}
