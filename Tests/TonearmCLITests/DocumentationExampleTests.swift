import Foundation
import Testing
import TonearmTestSupport

/// Every Swift example in README.md and in the DocC catalogs (`Sources/*/*.docc`) is code that a test
/// compiles and runs: each ```swift block must appear, line for line, in a Swift file under `Tests/`
/// (indentation and blank lines aside), so an example cannot drift from the API it shows. A block that
/// is not Swift a test can compile (a fragment of a `Package.swift`) is preceded by an HTML comment
/// `<!-- not compiled: why -->`, which DocC and GitHub both leave out of the page.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    /// One fenced Swift block of a Markdown file.
    struct Example: CustomStringConvertible {
        var file: String
        var line: Int
        var lines: [String]
        var exempt: Bool

        var description: String { "\(file):\(line)" }
    }

    /// The documents whose examples are checked: README.md and every article of every catalog.
    static func documents() throws -> [URL] {
        var documents = [packageRoot.appending(path: "README.md")]
        let sources = packageRoot.appending(path: "Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path()).sorted() {
            let folder = sources.appending(path: module)
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder.path())) ?? []
            where entry.hasSuffix(".docc") {
                let catalog = folder.appending(path: entry)
                let articles = try FileManager.default.subpathsOfDirectory(atPath: catalog.path())
                    .filter { $0.hasSuffix(".md") }.sorted()
                documents += articles.map { catalog.appending(path: $0) }
            }
        }
        return documents
    }

    /// The ```swift blocks of `document`, with whether an exemption comment precedes each.
    static func examples(in document: URL) throws -> [Example] {
        let text = try String(contentsOf: document, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let name = String(document.path().dropFirst(packageRoot.path().count))
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
                index += 1
                continue
            }
            let opening = index
            var previous = opening - 1
            while previous >= 0, lines[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
            let exempt = previous >= 0 && lines[previous].hasPrefix("<!-- not compiled:")
            index += 1
            var body: [String] = []
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(lines[index])
                index += 1
            }
            examples.append(Example(file: name, line: opening + 1, lines: body, exempt: exempt))
            index += 1
        }
        return examples
    }

    /// A file's lines without their indentation, blank lines left out: what an example is compared by.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The normalised lines of every Swift file under `Tests/`.
    static func testSources() throws -> [[String]] {
        let tests = packageRoot.appending(path: "Tests")
        return try FileManager.default.subpathsOfDirectory(atPath: tests.path())
            .filter { $0.hasSuffix(".swift") }
            .map { normalized(try String(contentsOf: tests.appending(path: $0), encoding: .utf8).components(separatedBy: "\n")) }
    }

    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    @Test("every Swift example of README.md and the DocC articles appears, line for line, in a test")
    func examplesAreCompiled() throws {
        let sources = try Self.testSources()
        var checked = 0
        for document in try Self.documents() {
            for example in try Self.examples(in: document) where !example.exempt {
                let needle = Self.normalized(example.lines)
                checked += 1
                #expect(sources.contains { Self.contains($0, needle) },
                        "\(example): this example is not in any test under Tests/ (copy it there verbatim, or mark it <!-- not compiled: why -->)")
            }
        }
        #expect(checked >= 10, "only \(checked) examples found: is the extraction broken?")
    }

    @Test("an exemption says why")
    func exemptionsSayWhy() throws {
        for document in try Self.documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            for line in text.components(separatedBy: "\n") where line.hasPrefix("<!-- not compiled:") {
                let reason = line.dropFirst("<!-- not compiled:".count).replacingOccurrences(of: "-->", with: "")
                #expect(reason.trimmingCharacters(in: .whitespaces).count >= 10, "\(document.lastPathComponent): \(line)")
            }
        }
    }

    @Test("the checker finds a block missing from the tests, and accepts one that is there")
    func checkerFails() {
        let source = Self.normalized(["func f() {", "    let x = 1", "", "    print(x)", "}"])
        #expect(Self.contains(source, Self.normalized(["let x = 1", "print(x)"])))
        #expect(!Self.contains(source, Self.normalized(["let x = 2", "print(x)"])))
        #expect(!Self.contains(source, Self.normalized(["print(x)", "let x = 1"])))
    }
}
