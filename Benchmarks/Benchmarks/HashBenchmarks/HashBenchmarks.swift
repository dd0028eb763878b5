import Benchmark
import XXHashInline
import XXHashLibrary
@_spi(Benchmarks) import Tonearm

/// XXH3-64 compiled into the caller (`XXH_INLINE_ALL`, what the core ships on Linux) against a call into
/// the shared libxxhash and against the core's portable Swift XXH3 (what Apple platforms run), at the sizes of real canonical forms: a short GET (48 B), a typical GET with a query
/// (120 B), a small POST (250 B) and a larger one (500 B).
///
/// Each iteration hashes 1,000 times and is reported per 1,000 hashes (nanoseconds ÷ 1,000 = per hash):
/// the tool prints whole nanoseconds, too coarse for a 3 ns hash if it divided by the scaling factor.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock], timeUnits: .nanoseconds, warmupIterations: 10,
        maxDuration: .milliseconds(500), maxIterations: 2_000)
    let hashesPerIteration = 1_000

    for size in [48, 120, 250, 500] {
        // Printable bytes like a canonical form's; the content does not change XXH3's work.
        let input = (0..<size).map { UInt8(0x21 + $0 % 90) }
        Benchmark("XXH3 inline \(size) B x1000") { benchmark in
            var input = input
            input.withUnsafeMutableBytes { bytes in
                for round in 0..<hashesPerIteration {
                    // A different input every round, so the optimiser cannot hoist the hash out of the loop.
                    bytes.storeBytes(of: UInt64(truncatingIfNeeded: round), toByteOffset: 0, as: UInt64.self)
                    blackHole(bench_xxh3_inline(bytes.baseAddress, bytes.count))
                }
            }
        }
        Benchmark("XXH3 shared library \(size) B x1000") { benchmark in
            var input = input
            input.withUnsafeMutableBytes { bytes in
                for round in 0..<hashesPerIteration {
                    // A different input every round, so the optimiser cannot hoist the hash out of the loop.
                    bytes.storeBytes(of: UInt64(truncatingIfNeeded: round), toByteOffset: 0, as: UInt64.self)
                    blackHole(bench_xxh3_library(bytes.baseAddress, bytes.count))
                }
            }
        }
        Benchmark("XXH3 portable Swift \(size) B x1000") { benchmark in
            var input = input
            input.withUnsafeMutableBytes { bytes in
                for round in 0..<hashesPerIteration {
                    // A different input every round, so the optimiser cannot hoist the hash out of the loop.
                    bytes.storeBytes(of: UInt64(truncatingIfNeeded: round), toByteOffset: 0, as: UInt64.self)
                    blackHole(PortableXXH3.hash(UnsafeRawBufferPointer(bytes)))
                }
            }
        }
    }
}
