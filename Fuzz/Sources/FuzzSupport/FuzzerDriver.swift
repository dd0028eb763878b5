import CFuzzerDriver

#if canImport(Glibc)
import Glibc
#endif

/// Hands the process to libFuzzer with `callback` as the target and exits with its status.
///
/// libFuzzer parses the command line (`-max_total_time`, corpus folders, …) and calls `callback` once per
/// input; a crash, a sanitizer report or a timeout ends the run with a non-zero status and the input saved.
public func runFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv, callback)
    exit(status)
}
