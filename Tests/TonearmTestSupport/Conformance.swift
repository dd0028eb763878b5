import Foundation
import Testing

/// Locates `../shared/conformance/`, the corpus of outside test data that lives beside the project root.
///
/// Tests that read it use `.enabled(if: Conformance.isAvailable, Conformance.skipMessage)` so a checkout
/// without the corpus skips them with a clear message instead of failing.
public enum Conformance {
    /// The corpus folder, found by walking up from this file (or `TONEARM_CONFORMANCE` when set).
    public static let directory: URL? = {
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

    /// Whether the corpus was found.
    public static var isAvailable: Bool { directory != nil }

    /// The reason shown for tests skipped without the corpus.
    public static let skipMessage: Comment =
        "shared/conformance/ not found beside the project root (set TONEARM_CONFORMANCE to its path)"

    /// The URL of `relativePath` inside the corpus; only call from tests gated on `isAvailable`.
    public static func url(_ relativePath: String) throws -> URL {
        guard let directory else { throw MissingCorpus() }
        return directory.appendingPathComponent(relativePath)
    }

    /// The contents of `relativePath` inside the corpus.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The bytes of `relativePath` inside the corpus.
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try data(relativePath))
    }

    /// Relative paths of the files in `folder` with one of `extensions`, sorted; empty without the corpus
    /// (so parameterised tests list no cases rather than failing to build their arguments).
    public static func files(in folder: String, withExtensions extensions: Set<String>) -> [String] {
        guard let directory,
            let contents = try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)
        else { return [] }
        return contents.filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension) }.sorted().map { folder + "/" + $0 }
    }

    struct MissingCorpus: Error, CustomStringConvertible {
        var description: String { "shared/conformance/ is not available" }
    }
}
