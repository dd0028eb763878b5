import Foundation

/// Where a test's cassette lives: `__Cassettes__/<Suite>/<test>.json` beside the test file, so
/// recordings land in pull requests next to the tests that made them.
public enum CassetteLocation {
    /// The folder name beside test files.
    public static let folderName = "__Cassettes__"

    /// The cassette for test `test` of suite `suite` (nested suites separated by `/`) in the test file
    /// at `filePath`; an explicit `name` replaces the test's name (add an extension to choose a format:
    /// `"signIn.har"`).
    public static func url(filePath: String, suite: String, test: String, name: String? = nil) -> URL {
        let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent(folderName)
            .appendingPathComponent(suite, isDirectory: true)
        let file = name ?? test
        let hasExtension = !(file as NSString).pathExtension.isEmpty
        return folder.appendingPathComponent(hasExtension ? file : file + ".json")
    }

    /// A test function's name without its argument labels: `signIn()` → `signIn`,
    /// `fetch(user:)` → `fetch`.
    public static func baseName(_ name: String) -> String {
        String(name.prefix { $0 != "(" })
    }

    /// The suite folder for a test: its enclosing types joined with `/`, or the file name without
    /// extension for a test outside any type.
    public static func suiteFolder(enclosingTypes: [String], filePath: String) -> String {
        if !enclosingTypes.isEmpty { return enclosingTypes.joined(separator: "/") }
        return URL(fileURLWithPath: filePath).deletingPathExtension().lastPathComponent
    }
}
