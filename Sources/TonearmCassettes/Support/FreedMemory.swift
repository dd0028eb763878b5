#if canImport(Glibc)
import Glibc
#endif

/// Hands memory freed after loading a large file back to the system.
///
/// Reading a cassette allocates and frees many small blocks (each track's parse tree, the file's
/// bytes); glibc keeps freed heap pages resident for reuse, so after a 100 MB load a process could stay
/// tens of megabytes larger than what it still uses. `malloc_trim` returns those pages. Other C
/// libraries (Darwin's) return them on their own, so this does nothing there.
enum FreedMemory {
    /// Files at least this large are followed by a trim; smaller loads free too little to matter, and
    /// tests load thousands of small cassettes.
    static let minimumFileSize = 4 << 20

    /// Returns freed memory to the system when `fileSize` bytes were just loaded and dropped.
    static func release(afterLoading fileSize: Int) {
        guard fileSize >= minimumFileSize else { return }
        #if canImport(Glibc)
        // `malloc_trim` (glibc's malloc.h) is not in Swift's Glibc module: look it up, so a C library
        // without it (musl) simply skips the trim.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }  // RTLD_DEFAULT
        let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        _ = trim(0)
        #endif
    }
}
