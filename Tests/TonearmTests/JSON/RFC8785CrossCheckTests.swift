import Foundation
import Testing

@testable import Tonearm

/// Vectors from an independent implementation (PyPI `rfc8785`), made by
/// scripts/generate-rfc8785-vectors.py.
@Suite("Cross-check against the rfc8785 Python package")
struct RFC8785CrossCheckTests {
    struct Vector: Decodable {
        var input: String
        var canonical: String
    }

    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/rfc8785-crosscheck.json")

    @Test("every generated document canonicalises to what rfc8785 produced")
    func everyVectorMatches() throws {
        let vectors = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: Self.fixture))
        #expect(vectors.count >= 300)
        let canonicalizer = JSONCanonicalizer()
        for (index, vector) in vectors.enumerated() {
            let actual = try canonicalizer.canonicalize(Array(vector.input.utf8))
            #expect(
                actual == Array(vector.canonical.utf8),
                "vector \(index): \(String(decoding: actual, as: UTF8.self)) != \(vector.canonical)")
        }
    }

    @Test("the parsed value tree writes the same canonical text")
    func valueTreeAgrees() throws {
        let vectors = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: Self.fixture))
        for vector in vectors {
            let value = try JSONValue(parsing: Array(vector.input.utf8))
            #expect(Array(value.canonicalText.utf8) == Array(vector.canonical.utf8))
        }
    }
}
