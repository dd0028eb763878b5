import Foundation

/// The executable `name` the build put next to the test bundle (SwiftPM builds the executables a test
/// target depends on), or `nil`.
public func builtExecutable(_ name: String) -> URL? {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder.deleteLastPathComponent()
    }
    return nil
}

/// A command run to completion: its exit status and output.
public struct ProcessRun: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output, byte for byte (for commands whose output is not text).
    public var outputBytes: [UInt8]
    /// Standard error.
    public var errors: String

    /// Standard output, decoded as UTF-8.
    public var output: String { String(decoding: outputBytes, as: UTF8.self) }

    /// ``runBlocking(_:_:environment:input:currentDirectory:)`` on a thread of its own (``blocking(_:)``),
    /// for async tests: waiting on the calling thread would hold one of the few threads every other
    /// test's tasks share.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        currentDirectory: URL? = nil
    ) async throws -> ProcessRun {
        try await blocking {
            try runBlocking(executable, arguments, environment: environment, input: input, currentDirectory: currentDirectory)
        }
    }

    /// Runs `executable` with `arguments` on the calling thread until it exits.
    ///
    /// - Parameters:
    ///   - environment: the command's whole environment; the runner's when `nil`.
    ///   - input: written to the command's standard input, which is then closed. Without it the command
    ///     reads an empty standard input rather than the test runner's, so a command that reads it never hangs.
    ///   - currentDirectory: where the command runs; the runner's when `nil`.
    public static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String]?, input: Data? = nil,
        currentDirectory: URL? = nil
    ) throws -> ProcessRun {
        let process = try ChildProcess(executable, arguments, environment: environment, currentDirectory: currentDirectory)
        if let input { process.input.write(input) }
        try process.input.close()
        let written = ProcessOutput.readUntilExit(of: process)
        return ProcessRun(status: process.terminationStatus, outputBytes: written.output, errors: String(decoding: written.errors, as: UTF8.self))
    }
}
