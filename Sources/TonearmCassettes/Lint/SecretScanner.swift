import Foundation
import Tonearm

/// Finds credentials a cassette still carries: headers the redaction covers, and query parameters
/// or JSON members with credential-like names, whose values are not the placeholder.
struct SecretScanner {
    let redaction: Redaction

    func scan(_ tracks: [Track]) -> [LintFinding] {
        var findings: [LintFinding] = []
        for (position, track) in tracks.enumerated() {
            let subject = "track \(position) (\(track.request.method) \(track.request.url))"
            findings += places(in: track).map { LintFinding(kind: .unredactedSecret, subject: subject, message: "\($0) is not redacted") }
        }
        return findings
    }

    /// Where `track` carries a secret, e.g. `request header Authorization` or `JSON body field /token`,
    /// in a fixed order: request headers, response headers, query parameters, request body fields.
    func places(in track: Track) -> [String] {
        var places = headerSecrets(track.request.headers, side: "request")
        if let response = track.response { places += headerSecrets(response.headers, side: "response") }
        places += querySecrets(track.request.url)
        places += jsonSecrets(track.request.body, contentType: track.request.headers.first(named: "Content-Type"))
        return places
    }

    private func headerSecrets(_ headers: [HeaderField], side: String) -> [String] {
        headers.filter { redaction.headers.contains($0.name.lowercased()) && !isRedacted($0.value) }
            .map { "\(side) header \($0.name)" }
    }

    /// Query parameters with credential-like or redacted names, read by the core's form rules (the
    /// pairs matching compares), whose values are not stand-ins.
    private func querySecrets(_ url: String) -> [String] {
        guard let query = NormalizedURL(url).query else { return [] }
        return FormEncoding.pairs(query).filter { pair in
            let name = pair.decodedName
            return (CassetteLinter.secretNames.contains(name.lowercased()) || redaction.redactsQueryParameter(named: pair.name))
                && !isRedacted(pair.decodedValue)
        }.map { "query parameter \($0.decodedName)" }
    }

    private func jsonSecrets(_ body: [UInt8], contentType: String?) -> [String] {
        guard redaction.isJSON(contentType), let node = try? JSONDocumentParser.parse(DocumentSource(file: nil, bytes: body)) else { return [] }
        var found: [String] = []
        collect(node, pointer: "", into: &found)
        return found
    }

    private func collect(_ node: DocumentNode, pointer: String, into found: inout [String]) {
        switch node.value {
        case .object(let members):
            for member in members {
                let path = pointer + "/" + member.key
                if case .string(let value) = member.value.value, CassetteLinter.secretNames.contains(member.key.lowercased()), !isRedacted(value) {
                    found.append("JSON body field \(path)")
                }
                collect(member.value, pointer: path, into: &found)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { collect(element, pointer: pointer + "/\(index)", into: &found) }
        default:
            return
        }
    }

    /// The placeholder, or an obvious stand-in such as `<OPENAI_ACCESS_TOKEN>` or `Bearer <redacted>`.
    private func isRedacted(_ value: String) -> Bool {
        value.contains(redaction.placeholder) || value.contains("<") && value.contains(">") || value.isEmpty
            || value.uppercased().contains("REDACTED") || value.uppercased().contains("FILTERED")
    }
}
