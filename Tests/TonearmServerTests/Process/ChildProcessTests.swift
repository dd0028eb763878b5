import Foundation
import Testing
import TonearmTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Child processes the tests start")
struct ChildProcessTests {
    @Test("A child inherits only its standard input, output and error, however many descriptors the runner holds")
    func onlyStandardDescriptors() async throws {
        // Pipes opened without close-on-exec, as Foundation's are: the kind a child used to inherit.
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        for _ in 0..<100 {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            opened += ends
        }
        let listed = try await ProcessRun.run("/bin/sh", ["-c", "ls /proc/$$/fd"])
        #expect(listed.status == 0, "\(listed.errors)")
        let descriptors = Set(listed.output.split(separator: "\n").compactMap { Int($0) })
        // The shell's own 0, 1 and 2, and at most the one `ls` or the shell opens for itself.
        #expect(descriptors.isSuperset(of: [0, 1, 2]))
        #expect(descriptors.subtracting([0, 1, 2]).count <= 1, "inherited: \(descriptors.sorted())")
    }

    @Test("Exit statuses and signals read as Foundation's Process reports them; waiting from many threads at once is safe")
    func exitAndSignal() async throws {
        #expect(try await ProcessRun.run("/bin/sh", ["-c", "exit 3"]).status == 3)
        let sleeper = try ChildProcess("/bin/sleep", ["60"])
        #expect(sleeper.isRunning)
        sleeper.send(SIGTERM)
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for _ in 0..<4 { group.addTask { try await blocking { sleeper.waitUntilExit() } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: SIGTERM, count: 4))
        #expect(!sleeper.isRunning)
        sleeper.send(SIGKILL)  // reaped: not sent to a pid that may now be another process's
    }

    @Test("Input written to the child reaches it; a working directory is honoured")
    func inputAndDirectory() async throws {
        let folder = try TemporaryFolder()
        let echoed = try await ProcessRun.run("/bin/sh", ["-c", "cat; pwd"], input: Data("hello\n".utf8), currentDirectory: folder.url)
        #expect(echoed.output == "hello\n" + folder.url.resolvingSymlinksInPath().path + "\n")
    }
}
