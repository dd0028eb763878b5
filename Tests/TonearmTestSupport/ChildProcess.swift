import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child process the tests start (`tonearm serve`, curl, Python servers and clients), with pipes for
/// its standard input, output and error.
///
/// Started with `posix_spawn` rather than Foundation's `Process`, for two reasons seen in this suite:
/// - `Process.run()` on Linux lists `/proc/self/fd` to close the runner's descriptors in the child, and
///   copies each entry's 256-byte name field whole. With about 1,400 descriptors open (hundreds of test
///   servers running in parallel) the directory buffer is full and that copy reads past its end: the
///   runner crashed with a segmentation fault in `Process.run()` (CI, and reproduced locally).
/// - Foundation's pipes are not close-on-exec, so a child started while another test set up its pipes
///   inherited their ends, and that test's reader saw end-of-file only when the unrelated child exited.
///
/// Here every pipe is created close-on-exec, the child's ends are put on 0, 1 and 2 by the spawn's
/// file actions, and `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34) closes whatever else the
/// child would have inherited, without listing descriptors.
public final class ChildProcess: Sendable {
    /// The child's process id.
    public let processIdentifier: pid_t
    /// The write end of the child's standard input.
    public let input: FileHandle
    /// The read end of the child's standard output.
    public let output: FileHandle
    /// The read end of the child's standard error; `nil` when it writes to the test runner's.
    public let errors: FileHandle?

    /// The exit, once reaped. The pid is only signalled while this is `nil`: an unreaped child's pid
    /// cannot have been reused.
    private let reapedStatus = Mutex<Int32?>(nil)

    /// Starts `executable` (a path) with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment; the runner's when `nil`.
    ///   - currentDirectory: where it runs; the runner's when `nil`.
    ///   - errorsToRunner: its standard error goes to the runner's (for a child whose log nobody reads:
    ///     a full pipe would stop it).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: URL? = nil, errorsToRunner: Bool = false
    ) throws {
        let stdin = try Self.pipe(), stdout = try Self.pipe()
        let stderr = errorsToRunner ? nil : try Self.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto 0, 1 and 2 clears close-on-exec on the copies; the originals close at exec.
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr.write, 2) }
        if let closeFrom = GNUExtensions.closeFrom { _ = closeFrom(&actions, 3) }
        if let currentDirectory {
            guard let changeDirectory = GNUExtensions.changeDirectory else { throw POSIXError(.ENOSYS) }
            let status = currentDirectory.path.withCString { changeDirectory(&actions, $0) }
            guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, as Foundation's Process does: a signal meant for the runner's group
        // (a terminal's ^C) is not delivered to servers the tests stop themselves.
        // No signal blocked or ignored because the spawning thread had it so (a child started from a
        // thread that blocks SIGTERM would never see the SIGTERM a test sends to stop it).
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = CStringArray([executable] + arguments)
        let envp = CStringArray((environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" })
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp.pointers)
        // The child's ends are the child's now (or nobody's, if the spawn failed).
        close(stdin.read)
        close(stdout.write)
        if let stderr { close(stderr.write) }
        guard status == 0 else {
            close(stdin.write)
            close(stdout.read)
            if let stderr { close(stderr.read) }
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL)
        }
        processIdentifier = pid
        input = FileHandle(fileDescriptor: stdin.write, closeOnDealloc: true)
        output = FileHandle(fileDescriptor: stdout.read, closeOnDealloc: true)
        errors = stderr.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) }
    }

    deinit {
        // Reap a child that has exited and nobody waited for; one still running is left alone.
        _ = reap()
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { reap() == nil }

    /// Sends `signal` unless the child has already been reaped.
    public func send(_ signal: Int32) {
        reapedStatus.withLock { reaped in
            if reaped == nil { kill(processIdentifier, signal) }
        }
    }

    /// Blocks until the child exits; returns its exit status, or the signal that ended it (as
    /// Foundation's `terminationStatus` does). Any number of threads may wait at once.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        while true {
            if let status = reap() { return status }
            // Waits for the exit without reaping (WNOWAIT), so the pid stays the child's until `reap`
            // takes it under the lock.
            var information = siginfo_t()
            let waited = waitid(P_PID, id_t(processIdentifier), &information, WEXITED | WNOWAIT)
            guard waited != 0, errno != EINTR else { continue }
            // Reaped by another waiter (its status is kept), or by someone outside this type.
            return reapedStatus.withLock { reaped in
                if reaped == nil { reaped = -1 }
                return reaped ?? -1
            }
        }
    }

    /// The exit status once the child has exited (see ``waitUntilExit()``).
    public var terminationStatus: Int32 { waitUntilExit() }

    /// Reaps the child if it has exited; its status, or `nil` while it runs.
    private func reap() -> Int32? {
        reapedStatus.withLock { reaped in
            if let reaped { return reaped }
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(processIdentifier, &status, WNOHANG)
            } while result < 0 && errno == EINTR
            guard result == processIdentifier else { return nil }
            // The wait status's low seven bits are the signal that ended it, zero for an exit.
            let signal = status & 0x7F
            reaped = signal == 0 ? (status >> 8) & 0xFF : signal
            return reaped
        }
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard let makePipe = GNUExtensions.pipe, makePipe(&ends, O_CLOEXEC) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        return (ends[0], ends[1])
    }
}

/// glibc's extensions this type needs, which Swift's Glibc module does not import (they need
/// `_GNU_SOURCE`): looked up once by name.
private enum GNUExtensions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    typealias Pipe = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    static let pipe: Pipe? = symbol("pipe2")
    static let closeFrom: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    static let changeDirectory: ChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}

/// A NULL-terminated array of C strings that lives as long as this value.
private final class CStringArray {
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [String]) {
        count = strings.count
        pointers = .allocate(capacity: count + 1)
        for (index, string) in strings.enumerated() { pointers[index] = strdup(string) }
        pointers[count] = nil
    }

    deinit {
        for index in 0..<count { free(pointers[index]) }
        pointers.deallocate()
    }
}
