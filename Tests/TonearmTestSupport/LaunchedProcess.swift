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
    /// Standard output.
    public var output: String
    /// Standard error.
    public var errors: String

    /// Runs `executable` with `arguments` (and `environment`, the runner's when `nil`) on the calling
    /// thread until it exits.
    public static func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String]?) throws -> ProcessRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessRun(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), errors: String(decoding: err, as: UTF8.self))
    }
}
