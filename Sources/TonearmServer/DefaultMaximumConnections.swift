#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServerConfiguration {
    /// Half the process's descriptor limit (its soft `RLIMIT_NOFILE`), at least 16 and at most 16,384:
    /// 512 under Linux's usual 1,024, 128 under macOS's usual 256.
    ///
    /// A cap below the descriptor limit is what makes shedding work: past the limit the kernel refuses
    /// new connections before the server sees them, so none can be shed for them. The other half is
    /// left for what the process also opens: a recording client's upstream connection, cassette and
    /// journal files, and, in a test runner, the clients themselves.
    public static var defaultMaximumConnections: Int {
        var limit = rlimit()
        guard getrlimit(Self.descriptorResource, &limit) == 0 else { return 512 }
        // RLIM_INFINITY is the largest value, so "no limit" takes the upper bound.
        let soft = UInt64(limit.rlim_cur)
        return Int(min(16_384, max(16, soft / 2)))
    }

    #if canImport(Glibc)
    private static let descriptorResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let descriptorResource = RLIMIT_NOFILE
    #endif
}
