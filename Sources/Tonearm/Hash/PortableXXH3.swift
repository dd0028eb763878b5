/// XXH3-64 written in Swift, for platforms without the system libxxhash (iOS, tvOS, watchOS, visionOS,
/// macOS without Homebrew).
///
/// Keys are part of Tonearm's contract (docs/key-spec.md): a cassette keyed on Linux must match on iOS,
/// so this must give exactly the bits libxxhash gives, for every length and seed. `PortableXXH3Tests`
/// checks it against libxxhash on every length from 0 to 4,096 bytes and around each internal size
/// boundary, under several seeds. The structure follows the XXH3 specification's size classes: 0–16,
/// 17–128 and 129–240 bytes are mixed directly with the secret, longer inputs run the striped
/// accumulator loop with a scramble per block.
@_spi(Benchmarks) public enum PortableXXH3 {
    /// XXH3-64 of `input` under `seed`.
    public static func hash(_ input: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let length = input.count
        return defaultSecret.withUnsafeBytes { secret in
            if length <= 16 { return upTo16(input, secret, seed) }
            if length <= 128 { return upTo128(input, secret, seed) }
            if length <= midsizeMax { return upTo240(input, secret, seed) }
            return long(input, seed: seed)
        }
    }

    // MARK: Constants of the algorithm

    private static let prime32_1: UInt64 = 0x9E37_79B1
    private static let prime32_2: UInt64 = 0x85EB_CA77
    private static let prime32_3: UInt64 = 0xC2B2_AE3D
    private static let prime64_1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime64_2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime64_3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime64_4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime64_5: UInt64 = 0x27D4_EB2F_1656_67C5

    private static let midsizeMax = 240
    private static let stripeLength = 64
    private static let secretConsumeRate = 8
    private static let secretSizeMin = 136

    /// The 192-byte default secret of the XXH3 specification.
    private static let defaultSecret: [UInt8] = [
        0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
        0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
        0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
        0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
        0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
        0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
        0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
        0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
        0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
        0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
        0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
        0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
    ]

    // MARK: Short inputs

    private static func upTo16(_ input: UnsafeRawBufferPointer, _ secret: UnsafeRawBufferPointer, _ seed: UInt64) -> UInt64 {
        let length = input.count
        if length > 8 {
            let bitflip1 = (read64(secret, 24) ^ read64(secret, 32)) &+ seed
            let bitflip2 = (read64(secret, 40) ^ read64(secret, 48)) &- seed
            let low = read64(input, 0) ^ bitflip1
            let high = read64(input, length - 8) ^ bitflip2
            let accumulator = UInt64(length) &+ low.byteSwapped &+ high &+ foldedProduct(low, high)
            return avalanche(accumulator)
        }
        if length >= 4 {
            let mixedSeed = seed ^ (UInt64(UInt32(truncatingIfNeeded: seed).byteSwapped) << 32)
            let first = UInt64(read32(input, 0))
            let last = UInt64(read32(input, length - 4))
            let bitflip = (read64(secret, 8) ^ read64(secret, 16)) &- mixedSeed
            return rrmxmx((last &+ (first << 32)) ^ bitflip, length: UInt64(length))
        }
        if length > 0 {
            let first = UInt32(input[0]), middle = UInt32(input[length >> 1]), last = UInt32(input[length - 1])
            let combined = (first << 16) | (middle << 24) | last | (UInt32(length) << 8)
            let bitflip = UInt64(read32(secret, 0) ^ read32(secret, 4)) &+ seed
            return xxh64Avalanche(UInt64(combined) ^ bitflip)
        }
        return xxh64Avalanche(seed ^ (read64(secret, 56) ^ read64(secret, 64)))
    }

    private static func upTo128(_ input: UnsafeRawBufferPointer, _ secret: UnsafeRawBufferPointer, _ seed: UInt64) -> UInt64 {
        let length = input.count
        var accumulator = UInt64(length) &* prime64_1
        if length > 32 {
            if length > 64 {
                if length > 96 {
                    accumulator &+= mix16(input, 48, secret, 96, seed)
                    accumulator &+= mix16(input, length - 64, secret, 112, seed)
                }
                accumulator &+= mix16(input, 32, secret, 64, seed)
                accumulator &+= mix16(input, length - 48, secret, 80, seed)
            }
            accumulator &+= mix16(input, 16, secret, 32, seed)
            accumulator &+= mix16(input, length - 32, secret, 48, seed)
        }
        accumulator &+= mix16(input, 0, secret, 0, seed)
        accumulator &+= mix16(input, length - 16, secret, 16, seed)
        return avalanche(accumulator)
    }

    private static func upTo240(_ input: UnsafeRawBufferPointer, _ secret: UnsafeRawBufferPointer, _ seed: UInt64) -> UInt64 {
        let length = input.count
        let startOffset = 3, lastOffset = 17
        var accumulator = UInt64(length) &* prime64_1
        for round in 0..<8 {
            accumulator &+= mix16(input, 16 * round, secret, 16 * round, seed)
        }
        accumulator = avalanche(accumulator)
        for round in 8..<(length / 16) {
            accumulator &+= mix16(input, 16 * round, secret, 16 * (round - 8) + startOffset, seed)
        }
        accumulator &+= mix16(input, length - 16, secret, secretSizeMin - lastOffset, seed)
        return avalanche(accumulator)
    }

    // MARK: Long inputs

    private static func long(_ input: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        if seed == 0 {
            return defaultSecret.withUnsafeBytes { longWithSecret(input, secret: $0) }
        }
        // A seeded long hash runs with a secret derived from the seed: each 16-byte lane of the default
        // secret gets `+ seed` on its low half and `- seed` on its high half.
        var derived = [UInt8](repeating: 0, count: defaultSecret.count)
        defaultSecret.withUnsafeBytes { base in
            derived.withUnsafeMutableBytes { out in
                for lane in 0..<(base.count / 16) {
                    out.storeBytes(of: (read64(base, 16 * lane) &+ seed).littleEndian, toByteOffset: 16 * lane, as: UInt64.self)
                    out.storeBytes(of: (read64(base, 16 * lane + 8) &- seed).littleEndian, toByteOffset: 16 * lane + 8, as: UInt64.self)
                }
            }
        }
        return derived.withUnsafeBytes { longWithSecret(input, secret: $0) }
    }

    private static func longWithSecret(_ input: UnsafeRawBufferPointer, secret: UnsafeRawBufferPointer) -> UInt64 {
        let length = input.count
        var lanes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            prime32_3, prime64_1, prime64_2, prime64_3, prime64_4, prime32_2, prime64_5, prime32_1
        )
        withUnsafeMutableBytes(of: &lanes) { raw in
            let accumulators = raw.bindMemory(to: UInt64.self)
            let stripesPerBlock = (secret.count - stripeLength) / secretConsumeRate
            let blockLength = stripeLength * stripesPerBlock
            let blockCount = (length - 1) / blockLength
            for block in 0..<blockCount {
                for stripe in 0..<stripesPerBlock {
                    accumulate(accumulators, input, block * blockLength + stripe * stripeLength, secret, stripe * secretConsumeRate)
                }
                scramble(accumulators, secret, secret.count - stripeLength)
            }
            let stripes = ((length - 1) - blockLength * blockCount) / stripeLength
            for stripe in 0..<stripes {
                accumulate(accumulators, input, blockCount * blockLength + stripe * stripeLength, secret, stripe * secretConsumeRate)
            }
            let lastAccumulateStart = 7
            accumulate(accumulators, input, length - stripeLength, secret, secret.count - stripeLength - lastAccumulateStart)
        }
        let mergeStart = 11
        return withUnsafeBytes(of: &lanes) { raw in
            let accumulators = raw.bindMemory(to: UInt64.self)
            var result = UInt64(length) &* prime64_1
            for pair in 0..<4 {
                result &+= foldedProduct(
                    accumulators[2 * pair] ^ read64(secret, mergeStart + 16 * pair),
                    accumulators[2 * pair + 1] ^ read64(secret, mergeStart + 16 * pair + 8))
            }
            return avalanche(result)
        }
    }

    @inline(__always)
    private static func accumulate(
        _ accumulators: UnsafeMutableBufferPointer<UInt64>, _ input: UnsafeRawBufferPointer, _ inputOffset: Int,
        _ secret: UnsafeRawBufferPointer, _ secretOffset: Int
    ) {
        for lane in 0..<8 {
            let value = read64(input, inputOffset + 8 * lane)
            let keyed = value ^ read64(secret, secretOffset + 8 * lane)
            accumulators[lane ^ 1] &+= value
            accumulators[lane] &+= (keyed & 0xFFFF_FFFF) &* (keyed >> 32)
        }
    }

    @inline(__always)
    private static func scramble(_ accumulators: UnsafeMutableBufferPointer<UInt64>, _ secret: UnsafeRawBufferPointer, _ secretOffset: Int) {
        for lane in 0..<8 {
            var value = accumulators[lane]
            value ^= value >> 47
            value ^= read64(secret, secretOffset + 8 * lane)
            accumulators[lane] = value &* prime32_1
        }
    }

    // MARK: Mixing

    @inline(__always)
    private static func mix16(
        _ input: UnsafeRawBufferPointer, _ inputOffset: Int, _ secret: UnsafeRawBufferPointer, _ secretOffset: Int,
        _ seed: UInt64
    ) -> UInt64 {
        foldedProduct(
            read64(input, inputOffset) ^ (read64(secret, secretOffset) &+ seed),
            read64(input, inputOffset + 8) ^ (read64(secret, secretOffset + 8) &- seed))
    }

    /// The 128-bit product of `lhs` and `rhs`, its halves xored together.
    @inline(__always)
    private static func foldedProduct(_ lhs: UInt64, _ rhs: UInt64) -> UInt64 {
        let product = lhs.multipliedFullWidth(by: rhs)
        return product.low ^ product.high
    }

    @inline(__always)
    private static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = value ^ (value >> 37)
        hash &*= 0x1656_6791_9E37_79F9
        return hash ^ (hash >> 32)
    }

    @inline(__always)
    private static func xxh64Avalanche(_ value: UInt64) -> UInt64 {
        var hash = value ^ (value >> 33)
        hash &*= prime64_2
        hash ^= hash >> 29
        hash &*= prime64_3
        return hash ^ (hash >> 32)
    }

    @inline(__always)
    private static func rrmxmx(_ value: UInt64, length: UInt64) -> UInt64 {
        var hash = value ^ (value.rotatedLeft(49) ^ value.rotatedLeft(24))
        hash &*= 0x9FB2_1C65_1E98_DF25
        hash ^= (hash >> 35) &+ length
        hash &*= 0x9FB2_1C65_1E98_DF25
        return hash ^ (hash >> 28)
    }

    @inline(__always)
    private static func read64(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func read32(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
