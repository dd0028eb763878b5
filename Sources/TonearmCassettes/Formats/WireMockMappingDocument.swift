import Foundation
import Tonearm

/// One WireMock mapping parsed once, as a stub server receives it: its tree (positions kept for
/// errors) for the importer, and the same content as a ``JSONValue`` for what the server echoes and
/// reads itself (settings, metadata, priority).
///
/// The server used to parse a mapping into a `JSONValue`, then hand re-encoded bytes to the importer,
/// which parsed them again; the re-encoding also put a filled-in mapping's `jsonBody` members in
/// canonical order, so the answer's body was not the one the mapping wrote.
package struct WireMockMappingDocument: Sendable {
    private let node: DocumentNode
    private let source: DocumentSource
    /// The mapping as JSON: members in the order sent (a repeated member's first value), numbers in
    /// their canonical form (`2.50` is `2.5`), as `JSONValue(parsing:)` makes them.
    package let json: JSONValue

    /// Parses `bytes`; `file` names them in errors.
    package init(parsing bytes: [UInt8], file: String?) throws(CassetteError) {
        source = DocumentSource(file: file, bytes: bytes)
        node = try JSONDocumentParser.parse(source)
        json = Self.jsonValue(of: node, source: source)
    }

    /// The mapping as the importer reads it, as WireMock's server takes it: no `request` means any
    /// request, no `method` any method, no `response` (or `status`) a 200; `removingResponseMembers`
    /// are left out of the response (the caller handles them per request).
    package func decode(removingResponseMembers removed: [String], bodyFiles: URL?) throws(CassetteError) -> CassetteImport {
        var mapping = node.filledInAsWireMockServes()
        mapping.withObjectMember("response") { response in
            if case .object(let members) = response.value, !removed.isEmpty {
                response.value = .object(members.filter { !removed.contains($0.key) })
            }
        }
        return try WireMockFormat.decode(DocumentCursor(root: mapping, source: source), file: source.file, bodyFiles: bodyFiles)
    }

    private static func jsonValue(of node: DocumentNode, source: DocumentSource) -> JSONValue {
        switch node.value {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let text): return (try? JSONValue(parsing: Array(text.utf8))) ?? .number(text)
        case .string(let text): return .string(text)
        case .binary(let bytes): return .string(Data(bytes).base64EncodedString())
        case .array(let elements): return .array(elements.map { jsonValue(of: $0, source: source) })
        case .object(let members):
            var seen = Set<String>()
            return .object(members.compactMap { member in
                seen.insert(member.key).inserted ? JSONMember(key: member.key, value: jsonValue(of: member.value, source: source)) : nil
            })
        case .raw(let range):
            let bytes = Array(source.bytes[range.clamped(to: 0..<source.bytes.count)])
            return (try? JSONValue(parsing: bytes)) ?? .null
        }
    }
}

extension DocumentNode {
    /// This mapping as WireMock's server takes it: no `request` is any request, no `method` any method,
    /// no `response` (or `status`) a 200. Every reader of mappings fills them in (the admin API, a root
    /// folder, a mapping file), so `tonearm lint` and `tonearm serve` read a mapping alike.
    func filledInAsWireMockServes() -> DocumentNode {
        var mapping = self
        mapping.withObjectMember("request") { request in
            request.addMemberIfMissing("method", .string("ANY"))
        }
        mapping.withObjectMember("response") { response in
            response.addMemberIfMissing("status", .number("200"))
        }
        return mapping
    }

    /// Lets `update` change the object member `key`, adding it as an empty object first when missing; a
    /// node that is not an object is left as it is (the importer reports it).
    mutating func withObjectMember(_ key: String, _ update: (inout DocumentNode) -> Void) {
        guard case .object(var members) = value else { return }
        if let index = members.firstIndex(where: { $0.key == key }) {
            update(&members[index].value)
        } else {
            var created = DocumentNode(value: .object([]), location: .unknown)
            update(&created)
            members.append(Member(key: key, value: created))
        }
        value = .object(members)
    }

    /// Adds the member `key` with `memberValue` to an object that lacks it.
    private mutating func addMemberIfMissing(_ key: String, _ memberValue: Value) {
        guard case .object(var members) = value, !members.contains(where: { $0.key == key }) else { return }
        members.append(Member(key: key, value: DocumentNode(value: memberValue, location: .unknown)))
        value = .object(members)
    }
}
