import Foundation
import Synchronization

/// The pipes a child process was started with.
public struct ChildProcessPipes: @unchecked Sendable {
    // @unchecked Sendable: Foundation's Pipe is an immutable pair of file handles; each test reads or
    // closes its own child's pipes from one thread at a time.
    /// The child's standard input.
    public let input: Pipe
    /// The child's standard output.
    public let output: Pipe
    /// The child's standard error; `nil` when it writes to the test runner's.
    public let errors: Pipe?
}

/// Starts the test runner's child processes one at a time.
///
/// Foundation's pipes, and the socket through which `Process` learns that a child has exited, are not
/// close-on-exec. A child started while another test's pipes are being set up inherits their ends, so
/// that test's reader sees end-of-file, its `Process` sees the exit, and a server stopped by closing its
/// input stops, only once the unrelated child has exited too. Tests that stop servers one after another
/// then wait on each other forever (seen: `waitUntilExit` on an exited, unreaped server). Creating the
/// pipes and starting the child under one lock means every other child's ends are already closed in
/// this process whenever a new child is started.
public enum ChildProcessLaunch {
    private static let starting = Mutex(())

    /// Gives `process` fresh pipes for its standard input, output and (unless `errorsToRunner`, for a
    /// child whose log nobody reads: a full pipe would stop it) error, and starts it.
    public static func start(_ process: Process, errorsToRunner: Bool = false) throws -> ChildProcessPipes {
        try starting.withLock { _ in
            let pipes = ChildProcessPipes(input: Pipe(), output: Pipe(), errors: errorsToRunner ? nil : Pipe())
            process.standardInput = pipes.input
            process.standardOutput = pipes.output
            process.standardError = pipes.errors ?? FileHandle.standardError
            try process.run()
            return pipes
        }
    }
}
