import Foundation
import Testing

/// Locates `../shared/conformance/`, the corpus of outside test data that lives beside the project root.
///
/// Tests that read it use `.enabled(if: Conformance.isAvailable, Conformance.skipMessage)` so a checkout
/// without the corpus skips them with a clear message instead of failing.
enum Conformance {
    /// The corpus folder, found by walking up from this file (or `TONEARM_CONFORMANCE` when set).
    static let directory: URL? = {
        if let override = ProcessInfo.processInfo.environment["TONEARM_CONFORMANCE"] {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shared/conformance", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    static var isAvailable: Bool { directory != nil }

    static let skipMessage: Comment =
        "shared/conformance/ not found beside the project root (set TONEARM_CONFORMANCE to its path)"

    /// The URL of `relativePath` inside the corpus; only call from tests gated on `isAvailable`.
    static func url(_ relativePath: String) throws -> URL {
        guard let directory else { throw MissingCorpus() }
        return directory.appendingPathComponent(relativePath)
    }

    /// The bytes of `relativePath` inside the corpus.
    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// Every file directly inside `folder` (relative to the corpus) whose name ends with one of `extensions`.
    static func files(in folder: String, withExtensions extensions: Set<String>) throws -> [URL] {
        let contents = try FileManager.default.contentsOfDirectory(
            at: url(folder), includingPropertiesForKeys: nil)
        return contents.filter { extensions.contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    struct MissingCorpus: Error, CustomStringConvertible {
        var description: String { "shared/conformance/ is not available" }
    }
}
