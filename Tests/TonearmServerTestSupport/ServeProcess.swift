import Foundation
import TonearmTestSupport

/// A running `tonearm serve`, its listening line read.
package final class ServeProcess: @unchecked Sendable {
    // @unchecked Sendable: `listening` is written once, in `init`, before the value is shared.
    package let process: ChildProcess
    /// The first line of standard output, parsed.
    package private(set) var listening: [String: Any] = [:]

    package var url: String { listening["url"] as? String ?? "" }
    package var port: Int { listening["port"] as? Int ?? 0 }

    /// Starts `tonearm serve` and reads its listening line; with `signalOnListening`, sends that signal
    /// the instant the line's newline is read, on the reading thread, as a fast harness would.
    package init(_ arguments: [String], signalOnListening: Int32? = nil) async throws {
        guard let tonearm = builtExecutable("tonearm") else { throw CocoaError(.fileNoSuchFile) }
        let process = try ChildProcess(tonearm.path, ["serve"] + arguments)
        self.process = process
        try process.input.close()
        let line = try await blocking {
            let line = Self.readLine(process.output)
            if let signalOnListening { process.send(signalOnListening) }
            return line
        }
        listening = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? ["raw": line]
    }

    private static func readLine(_ handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while let byte = try? handle.read(upToCount: 1), let first = byte.first {
            if first == 0x0A { break }
            bytes.append(first)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `count` servers started at once with the same arguments.
    package static func startInParallel(_ count: Int, _ arguments: [String], signalOnListening: Int32? = nil) async throws -> [ServeProcess] {
        try await withThrowingTaskGroup(of: ServeProcess.self) { group in
            for _ in 0..<count { group.addTask { try await ServeProcess(arguments, signalOnListening: signalOnListening) } }
            var servers: [ServeProcess] = []
            for try await server in group { servers.append(server) }
            return servers
        }
    }

    /// Sends `signal` and waits for the exit; returns the status and the rest of the output.
    package func stop(signal: Int32 = SIGTERM) async throws -> (status: Int32, output: String, errors: String) {
        process.send(signal)
        return try await waitForExit()
    }

    /// Waits for the exit, reading the rest of the output.
    package func waitForExit() async throws -> (status: Int32, output: String, errors: String) {
        killIfStillRunning(after: 30)
        return try await blocking { [process] in
            let written = ProcessOutput.readUntilExit(of: process)
            return (process.terminationStatus, String(decoding: written.output, as: UTF8.self), String(decoding: written.errors, as: UTF8.self))
        }
    }

    /// Sends `signal` and waits for the exit without reading the pipes (a harness that ignores them).
    package func terminate(signal: Int32 = SIGTERM) async throws -> Int32 {
        process.send(signal)
        killIfStillRunning(after: 30)
        return try await blocking { [process] in process.waitUntilExit() }
    }

    /// A server still running `seconds` from now is killed (status 9), so a lost signal fails the test
    /// instead of hanging the run.
    private func killIfStillRunning(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [process] in
            process.send(SIGKILL)
        }
    }
}
