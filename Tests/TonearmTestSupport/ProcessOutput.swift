import Foundation

/// What a child process wrote to its standard output and error, read until it exits.
///
/// Both pipes are drained together while the process runs, so it never blocks on a full one (reading
/// one to end-of-file, then the other, stops a child that fills the second first), and once it has
/// exited, what is left in them is read without waiting for end-of-file, which a grandchild that
/// inherited the pipe could hold back.
public struct ProcessOutput: Sendable {
    /// Standard output, byte for byte.
    public var output: [UInt8] = []
    /// Standard error, byte for byte.
    public var errors: [UInt8] = []

    /// Reads `process`'s output and errors until it has exited and both pipes hold nothing more, then
    /// waits for its exit status. Blocks the calling thread.
    public static func readUntilExit(of process: ChildProcess) -> ProcessOutput {
        var collected = ProcessOutput()
        // A pipe read to its end (or not given) is -1; poll(2) passes over negative descriptors.
        var descriptors = [process.output.fileDescriptor, process.errors?.fileDescriptor ?? -1]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while descriptors.contains(where: { $0 >= 0 }) {
            // Read before polling: everything written before the exit is in the pipes once this is false.
            let exited = !process.isRunning
            var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), exited ? 0 : 100)
            if ready < 0 { if errno == EINTR { continue } else { break } }
            if ready == 0 {
                if exited { break }
                continue
            }
            for (index, entry) in polled.enumerated() where entry.fd >= 0 && entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if index == 0 { collected.output += buffer[..<count] } else { collected.errors += buffer[..<count] }
                } else if count == 0 || errno != EINTR {
                    descriptors[index] = -1
                }
            }
        }
        process.waitUntilExit()
        return collected
    }
}
