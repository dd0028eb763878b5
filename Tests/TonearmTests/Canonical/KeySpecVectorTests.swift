import Foundation
import Testing
import TonearmTestSupport
@testable import Tonearm

/// The worked vectors of docs/key-spec.md, read from the document itself so the spec and the code
/// cannot drift apart.
@Suite("docs/key-spec.md vectors")
struct KeySpecVectorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var title: String
        var request: Request
        var configuration: MatchingConfiguration
        var canonical: String
        var key: String
        var testDescription: String { title }
    }

    static let vectors: [Vector] = (try? loadVectors()) ?? []

    @Test("the spec has at least 20 vectors")
    func enoughVectors() {
        #expect(Self.vectors.count >= 20)
    }

    @Test("canonical form and key match the spec", arguments: vectors)
    func vector(_ vector: Vector) {
        let canonical = RequestCanonicalizer(vector.configuration).canonicalize(vector.request)
        #expect(canonical.description == vector.canonical)
        #expect(RequestKey(canonicalBytes: canonical.bytes).hex == vector.key)
    }

    static func loadVectors() throws -> [Vector] {
        let specURL = packageRoot.appendingPathComponent("docs/key-spec.md")
        let text = try String(contentsOf: specURL, encoding: .utf8)
        var vectors: [Vector] = []
        var title = ""
        var block: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### ") { title = String(line.dropFirst(4)) }
            if line == "```tonearm-vector" { block = []; continue }
            if line == "```", let lines = block {
                vectors.append(try vector(title: title, lines: lines))
                block = nil
                continue
            }
            block?.append(line)
        }
        return vectors
    }

    static func vector(title: String, lines: [Substring]) throws -> Vector {
        struct Malformed: Error { var title: String }
        guard let requestLine = lines.first(where: { $0.hasPrefix("request: ") }),
            let matchLine = lines.first(where: { $0.hasPrefix("match: ") }),
            let canonicalStart = lines.firstIndex(of: "canonical:"),
            let keyLine = lines.last, keyLine.hasPrefix("key: ")
        else { throw Malformed(title: title) }
        let object = try JSONSerialization.jsonObject(with: Data(requestLine.dropFirst(9).utf8)) as? [String: Any] ?? [:]
        let headers = (object["headers"] as? [[String]] ?? []).map { HeaderField($0[0], $0[1]) }
        let request = Request(
            method: object["method"] as? String ?? "GET", url: object["url"] as? String ?? "",
            headers: headers, body: Array((object["body"] as? String ?? "").utf8))
        var configuration = MatchingConfiguration(attributes: [])
        for name in matchLine.dropFirst(7).split(separator: ",") {
            guard let attribute = MatchAttribute(name: name) else { throw Malformed(title: title) }
            configuration.attributes.insert(attribute)
        }
        for line in lines where line.hasPrefix("ignore-query: ") {
            configuration.ignoredQueryParameters.insert(String(line.dropFirst(14)))
        }
        for line in lines where line.hasPrefix("ignore-json: ") {
            configuration.ignoredJSONFields.append(try JSONPointer(String(line.dropFirst(13))))
        }
        let canonical = lines[(canonicalStart + 1)..<(lines.count - 1)].map { $0 + "\n" }.joined()
        return Vector(
            title: title, request: request, configuration: configuration, canonical: canonical,
            key: String(keyLine.dropFirst(5)))
    }
}
