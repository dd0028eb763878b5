#if canImport(CXXHash) && !TONEARM_PORTABLE_XXH3
import CXXHash
#endif

/// XXH3-64, the hash every request key is made of: the system libxxhash (compiled inline) where the
/// package links it, on Linux, and ``PortableXXH3`` on Apple platforms, which have no system xxHash an
/// app could link. Both give the same bits, so keys are the same everywhere.
///
/// The `PortableXXH3` package trait (`swift test --traits PortableXXH3`) selects the Swift code on
/// Linux too, so the path Apple platforms take is built and tested in CI.
package enum XXH3 {
    /// XXH3-64 of `bytes` under `seed`.
    @inline(__always)
    package static func hash64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        #if canImport(CXXHash) && !TONEARM_PORTABLE_XXH3
        seed == 0
            ? tonearm_xxh3_64(bytes.baseAddress, bytes.count)
            : tonearm_xxh3_64_seeded(bytes.baseAddress, bytes.count, seed)
        #else
        PortableXXH3.hash(bytes, seed: seed)
        #endif
    }

    /// Which implementation this build uses, for benchmark reports.
    package static var implementation: String {
        #if canImport(CXXHash) && !TONEARM_PORTABLE_XXH3
        "libxxhash (inlined C)"
        #else
        "portable Swift"
        #endif
    }
}

/// XXH3-64 of a string's UTF-8 bytes.
@inline(__always)
func xxh3(_ string: String) -> UInt64 {
    var copy = string
    return copy.withUTF8 { XXH3.hash64(UnsafeRawBufferPointer($0)) }
}
