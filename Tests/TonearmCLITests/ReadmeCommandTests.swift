import Foundation
import Testing
import TonearmTestSupport

/// README's quick start promises two commands, and CI promises to run the second one. These read both
/// files, so a change to either that breaks the promise fails here rather than in a reader's terminal.
@Suite("README's commands")
struct ReadmeCommandTests {
    /// The lines of the first `sh` block under "## Quick start".
    static func quickStartCommands() throws -> [String] {
        let readme = try String(contentsOf: packageRoot.appending(path: "README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Quick start"), "README has no Quick start section")
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```sh\n"), "Quick start has no sh block")
        let close = try #require(rest[open.upperBound...].range(of: "```"), "Quick start's sh block is not closed")
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n").map(String.init)
    }

    @Test("Quick start is two commands: the demo, then the tests, each after its set-up job")
    func twoCommands() throws {
        let commands = try Self.quickStartCommands()
        try #require(commands.count == 2, "\(commands)")
        #expect(commands[0].hasPrefix("scripts/setup-system.sh demo && "))
        #expect(commands[0].hasSuffix("tonearm demo"))
        #expect(commands[1].hasPrefix("scripts/setup-system.sh test && "))
        #expect(commands[1].hasSuffix("swift test"))
    }

    @Test(".ci/run runs README's test command verbatim, as a line of its own")
    func ciRunsTheReadmeTestCommand() throws {
        let commands = try Self.quickStartCommands()
        let testCommand = try #require(commands.last)
        let ci = try String(contentsOf: packageRoot.appending(path: ".ci/run"), encoding: .utf8)
        let lines = ci.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let runsIt = lines.contains(testCommand)
        #expect(runsIt, "README's test command `\(testCommand)` is not a line of .ci/run")
    }
}
