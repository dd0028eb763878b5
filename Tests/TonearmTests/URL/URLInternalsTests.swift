import Testing

@testable import Tonearm

/// The hand-written constants and fast paths that the table tests only reach indirectly.
@Suite("URL internals")
struct URLInternalsTests {
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    static let subDelims = Set("!$&'()*+,;=".utf8)

    @Test("the byte class table matches the RFC 3986 §2 character lists")
    func byteClasses() {
        #expect(URLByteClass.table.utf8CodeUnitCount == 256)
        for value in 0...255 {
            let byte = UInt8(value)
            let flags = URLByteClass.flags(byte)
            let isUnreserved = Self.unreserved.contains(byte)
            #expect((flags & URLByteClass.unreserved != 0) == isUnreserved, "byte \(byte)")
            #expect(URLByteClass.isUnreserved(byte) == isUnreserved, "byte \(byte)")
            let pathLiteral = isUnreserved || Self.subDelims.contains(byte) || ":@/".utf8.contains(byte)
            #expect(URLByteClass.isPathLiteral(byte) == pathLiteral, "byte \(byte)")
            #expect((flags & URLByteClass.pathPlain != 0) == (pathLiteral && byte != UInt8(ascii: ".")), "byte \(byte)")
            let hex = Array("0123456789abcdef".utf8).firstIndex(of: byte) ?? Array("0123456789ABCDEF".utf8).firstIndex(of: byte)
            #expect(URLByteClass.hexValue(byte).map(Int.init) == hex, "byte \(byte)")
            #expect((flags & URLByteClass.hexDigit != 0) == (hex != nil), "byte \(byte)")
            #expect(URLByteClass.isUppercaseHex(byte) == "0123456789ABCDEF".utf8.contains(byte), "byte \(byte)")
            #expect(URLByteClass.isASCIIUppercase(byte) == (65...90).contains(value), "byte \(byte)")
            #expect((flags & URLByteClass.formDelimiter != 0) == "&=".utf8.contains(byte), "byte \(byte)")
            #expect((flags & URLByteClass.pathEnd != 0) == "?#".utf8.contains(byte), "byte \(byte)")
            #expect(flags & 0x80 == 0)
        }
    }

    @Test("the inline short copy writes exactly the source bytes and nothing around them", arguments: 0...40)
    func copyBytes(count: Int) {
        let source = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }
        var output = [UInt8](repeating: 0xEE, count: count + 4)
        source.withUnsafeBufferPointer { from in
            output.withUnsafeMutableBufferPointer { to in
                guard let start = to.baseAddress else { return }
                URLBytes.copyBytes(from: from.baseAddress ?? UnsafePointer(start), to: start + 2, count: count)
            }
        }
        #expect(Array(output[2..<(2 + count)]) == source)
        #expect(output.prefix(2).allSatisfy { $0 == 0xEE } && output.suffix(2).allSatisfy { $0 == 0xEE })
    }

    @Test("the word-at-a-time search finds the first match at every position", arguments: [0, 1, 7, 8, 9, 15, 16, 17, 40])
    func firstIndex(length: Int) {
        for position in 0...length {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            if position < length { bytes[position] = UInt8(ascii: "#") }
            if position + 1 < length { bytes[position + 1] = UInt8(ascii: "#") }  // a later match must not win
            bytes.withUnsafeBufferPointer { buffer in
                #expect(URLBytes.firstIndex(of: UInt8(ascii: "#"), in: buffer, from: 0, to: length) == position)
                #expect(URLBytes.firstIndex(of: UInt8(ascii: "#"), in: buffer, from: 0, to: min(position, length)) == min(position, length))
            }
        }
        // Bytes just above and below the target (borrow propagation in the zero-byte trick).
        let tricky: [UInt8] = [0x22, 0x24, 0x00, 0xA3, 0x01, 0x22, 0x24, 0xFF, 0x23]
        tricky.withUnsafeBufferPointer { #expect(URLBytes.firstIndex(of: 0x23, in: $0, from: 0, to: $0.count) == 8) }
    }

    @Test("inline texts pack, compare and write like their bytes", arguments: [0, 1, 5, 8, 9, 15, 16, 17, 30])
    func pairText(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: 0x41 + $0) }
        bytes.withUnsafeBufferPointer { buffer in
            let text = PairText(buffer)
            #expect(text.isInline == (length <= PairText.inlineCapacity))
            #expect(text.withBytes { Array($0) } == bytes)
            var written = [UInt8](repeating: 0xEE, count: length + 16)
            written.withUnsafeMutableBytes { text.write(to: $0.baseAddress!) }
            #expect(Array(written.prefix(length)) == bytes)
            // Orders like the bytes against a text one byte longer, one byte shorter, and one with a higher byte.
            let others: [[UInt8]] = [bytes + [0x00], Array(bytes.dropLast()), bytes.isEmpty ? [0x01] : Array(bytes.dropLast()) + [0xFF]]
            for other in others {
                other.withUnsafeBufferPointer { otherBuffer in
                    let otherText = PairText(otherBuffer)
                    let expected = bytes.lexicographicallyPrecedes(other) ? -1 : (bytes == other ? 0 : 1)
                    #expect(PairText.compare(text, otherText) == expected, "\(bytes) vs \(other)")
                    #expect(PairText.equal(text, otherText) == (bytes == other))
                }
            }
        }
    }

    @Test("remove_dot_segments works in place on any absolute path")
    func dotSegmentsInPlace() {
        let cases = [
            ("/a/b/c/./../../g", "/a/g"), ("/mid/content=5/../6", "/mid/6"), ("/", "/"), ("/./", "/"), ("/../", "/"),
            ("/a/./b/.", "/a/b/"), ("//..", "/"), ("/a//../b", "/a/b"),
        ]
        for (input, expected) in cases {
            var bytes = Array(input.utf8)
            let count = bytes.withUnsafeMutableBufferPointer { DotSegments.remove(in: $0, count: $0.count) }
            #expect(String(decoding: bytes.prefix(count), as: UTF8.self) == expected, "\(input)")
        }
    }
}
