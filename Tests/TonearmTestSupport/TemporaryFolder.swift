import Foundation

/// A fresh folder under the system temporary directory, removed when the value is dropped.
public final class TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates the folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// `name` inside the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `text` as UTF-8 to `name` inside the folder (whose parent folders must exist).
    public func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: file(name))
    }
}
