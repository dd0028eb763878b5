import Testing
import TonearmWorkloads
@_spi(Benchmarks) @testable import Tonearm

#if canImport(CXXHash)
import CXXHash

/// The portable XXH3 must give libxxhash's bits exactly: keys in cassettes recorded on Linux are matched
/// on iOS with the portable code.
@Suite("Portable XXH3-64 against libxxhash")
struct PortableXXH3Tests {
    /// Seed 0 (the key), the check hash's seed, and values that exercise carries and sign-like bits.
    static let seeds: [UInt64] = [0, RequestKey.checkSeed, 1, 0x8000_0000_0000_0000, UInt64.max, 0x9E37_79B1_85EB_CA87]

    @Test("every length from 0 to 4,096 bytes, under every seed", arguments: seeds)
    func everyLength(seed: UInt64) {
        var random = SeededRandom(seed: 0x5EED ^ seed)
        let bytes = (0..<4_096).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        var mismatches: [Int] = []
        bytes.withUnsafeBytes { all in
            for length in 0...4_096 {
                let input = UnsafeRawBufferPointer(rebasing: all[0..<length])
                if PortableXXH3.hash(input, seed: seed) != tonearm_xxh3_64_seeded(input.baseAddress, length, seed) {
                    mismatches.append(length)
                }
            }
        }
        #expect(mismatches.isEmpty, "lengths that differ from libxxhash: \(mismatches.prefix(20))")
    }

    /// XXH3 changes method at 16, 128 and 240 bytes, and its long loop scrambles every 1,024 bytes (16
    /// stripes of 64 with the default secret); lengths on both sides of each, and far past them.
    @Test("around every internal size boundary, with fresh random content per length")
    func boundaries() {
        var random = SeededRandom(seed: 42)
        let edges = [0, 1, 3, 4, 8, 9, 16, 17, 32, 33, 64, 65, 96, 97, 128, 129, 240, 241, 1_024, 1_025, 2_048, 2_049, 65_536, 100_003]
        for edge in edges {
            for length in max(0, edge - 2)...(edge + 2) {
                let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &random) }
                for seed in Self.seeds {
                    bytes.withUnsafeBytes { input in
                        #expect(
                            PortableXXH3.hash(input, seed: seed) == tonearm_xxh3_64_seeded(input.baseAddress, length, seed),
                            "length \(length), seed \(seed)")
                    }
                }
            }
        }
    }

    @Test("the published XXH3-64 value of the empty input")
    func emptyInputKnownValue() {
        // XXH3_64bits("", 0) as given in xxHash's own sanity checks: a value fixed by the algorithm, so this
        // holds on platforms where the comparison library is absent too.
        let empty = [UInt8]().withUnsafeBytes { PortableXXH3.hash($0) }
        #expect(empty == 0x2D06_8005_38D3_94C2)
    }
}
#endif

@Suite("XXH3 implementation choice")
struct XXH3ImplementationTests {
    @Test("the PortableXXH3 trait selects the Swift XXH3, and the default build the system library")
    func implementationFollowsTheTrait() {
        #if TONEARM_PORTABLE_XXH3 || !os(Linux)
        #expect(XXH3.implementation == "portable Swift")
        #else
        #expect(XXH3.implementation == "libxxhash (inlined C)")
        #endif
    }
}
