#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1

/// Lets requests with a method NIO's HTTP parser does not know (`KILL`, `PURGEALL`: any RFC 9110 token)
/// reach the server, as WireMock's mappings may name one: the parser (llhttp) knows a fixed list and
/// refuses the rest before any handler sees the request.
///
/// Placed in front of the parser, it follows the byte stream request by request (head, then a
/// `Content-Length` or chunked body) and, at each request's start, replaces a method outside
/// ``CustomMethodRewriter/passedMethods`` with `POST`, noting the method in ``MethodRewrites``; the
/// connection handler puts it back on the parsed head. The body framing of every non-`CONNECT` request
/// is the same for the parser whatever its method, so the substitute changes nothing else.
///
/// It holds at most a partial method token (64 bytes) across reads and copies a read only when it
/// rewrites in it. Whatever it cannot follow (a malformed head, a length it cannot read, an upgrade, a
/// `CONNECT`) ends its work on the connection: from there it passes bytes unchanged, and the parser
/// judges them as it would have anyway.
final class CustomMethodRewriter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Methods passed unchanged: those clients send most, and `CONNECT`, whose framing differs.
    static let passedMethods: [[UInt8]] = ["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS", "CONNECT", "TRACE"]
        .map { Array($0.utf8) }
    /// The longest method token rewritten; a longer one is left to the parser.
    static let longestMethod = 64
    private static let substitute: [UInt8] = Array("POST".utf8)
    private static let connect: [UInt8] = Array("CONNECT".utf8)

    private enum State {
        /// At a request's first byte, or in the blank lines before it; `token` holds a method begun in
        /// an earlier read.
        case requestStart
        /// After the method, up to the end of the request line.
        case requestLine
        /// At the start of a header line (or the blank line ending the head).
        case headerLineStart
        /// After a carriage return at the start of a header line: the head ends if a line feed follows.
        case headerLineCarriageReturn
        /// In a header's name; the name so far is in `name`.
        case headerName
        /// In the value of a header the framing depends on; the value so far is in `value`.
        case interestingValue(Framing)
        /// In a line whose content does not matter, up to its end.
        case skippingLine(then: LineEnd)
        case fixedBody(remaining: Int)
        case chunkSize(size: Int, sawDigit: Bool, inExtension: Bool)
        case chunkData(remaining: Int)
        /// The line end after a chunk's data.
        case chunkDataEnd
        /// At the start of a trailer line (or the blank line ending the body).
        case trailerLineStart
        /// Following nothing more: every byte goes to the parser unchanged.
        case passthrough
    }

    /// Where a skipped line leads.
    private enum LineEnd {
        case header
        case trailer
    }

    /// The headers the stream's framing depends on.
    private enum Framing {
        case contentLength
        case transferEncoding
        case upgrade
    }

    // The scanner's state is `@exclusivity(unchecked)`: the runtime's exclusivity check on each access
    // to a class's property cost about 800 instructions a request here (docs/benchmarks-history.md, "One
    // answer object"). It cannot be violated: only this handler's methods touch these properties, on the
    // channel's event loop, and none of them calls out (fires, writes, closes) while it accesses one;
    // `channelRead` fires the bytes on only after `follow` has returned.
    private let rewrites: MethodRewrites
    @exclusivity(unchecked) private var state = State.requestStart
    @exclusivity(unchecked) private var token: [UInt8] = []
    @exclusivity(unchecked) private var name: [UInt8] = []
    @exclusivity(unchecked) private var value: [UInt8] = []
    /// What the current request's head said about its body.
    @exclusivity(unchecked) private var contentLength: Int?
    @exclusivity(unchecked) private var chunked = false
    @exclusivity(unchecked) private var upgrades = false
    @exclusivity(unchecked) private var isConnect = false

    init(rewrites: MethodRewrites) {
        self.rewrites = rewrites
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .passthrough = state { return context.fireChannelRead(data) }
        let buffer = unwrapInboundIn(data)
        let output = buffer.withUnsafeReadableBytes { bytes in follow(bytes) }
        switch output {
        case .unchanged:
            context.fireChannelRead(data)
        case .heldBack(let count):
            // A method token is still arriving: everything before it goes on now.
            var forwarded = buffer
            forwarded.moveWriterIndex(to: forwarded.writerIndex - count)
            if forwarded.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(forwarded)) }
        case .rewritten(let bytes):
            var rewritten = context.channel.allocator.buffer(capacity: bytes.count)
            rewritten.writeBytes(bytes)
            if rewritten.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rewritten)) }
        }
    }

    private enum Output {
        /// Forward the read as it came.
        case unchanged
        /// Forward all but the last `count` bytes, the start of a method token kept for the next read.
        case heldBack(Int)
        /// Forward these bytes instead.
        case rewritten([UInt8])
    }

    /// Walks one read, returning what the parser gets of it.
    private func follow(_ bytes: UnsafeRawBufferPointer) -> Output {
        var output: [UInt8]?  // set once anything in this read differs from the read itself
        /// The bytes before this offset are accounted for in `output` (when set).
        var copiedUpTo = 0
        var offset = 0
        let count = bytes.count
        let resumedToken = !token.isEmpty
        if resumedToken { output = [] }
        while offset < count {
            let byte = bytes[offset]
            switch state {
            case .passthrough:
                offset = count
            case .requestStart:
                // Nearly every request: a common method and the whole head in this read.
                if token.isEmpty, let next = followCommonHead(bytes, from: offset) {
                    offset = next
                    continue
                }
                if token.isEmpty, byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                    offset += 1
                    continue
                }
                if byte == UInt8(ascii: " "), !token.isEmpty {
                    finishMethod(in: bytes, endingAt: offset, output: &output, copiedUpTo: &copiedUpTo)
                    token.removeAll(keepingCapacity: true)
                    offset += 1
                    continue
                }
                guard Self.isTokenCharacter(byte), token.count < Self.longestMethod else {
                    // Not a method the parser could take either: it answers the request 400.
                    flushToken(into: &output, bytes: bytes, copiedUpTo: &copiedUpTo, offset: offset)
                    state = .passthrough
                    continue
                }
                token.append(byte)
                offset += 1
            case .requestLine:
                guard let end = Self.lineEnd(in: bytes, from: offset) else {
                    offset = count
                    continue
                }
                offset = end + 1
                beginHead()
            case .headerLineStart:
                // Each line is judged as `followCommonHead` judges it when the whole head is in one read,
                // so that where reads end never changes what the rewriter does.
                if byte == UInt8(ascii: "\r") {
                    offset += 1
                    state = .headerLineCarriageReturn
                } else if byte == UInt8(ascii: "\n") {
                    offset += 1
                    endHead()
                } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                    // A folded line: obsolete, and not worth following.
                    state = .passthrough
                } else if Self.mayNameFraming(byte) {
                    name.removeAll(keepingCapacity: true)
                    state = .headerName
                } else {
                    state = .skippingLine(then: .header)
                }
            case .headerLineCarriageReturn:
                if byte == UInt8(ascii: "\n") {
                    offset += 1
                    endHead()
                } else {
                    // Not the blank line ending the head: a line the parser refuses, passed over.
                    state = .skippingLine(then: .header)
                }
            case .headerName:
                if byte == UInt8(ascii: ":") {
                    offset += 1
                    value.removeAll(keepingCapacity: true)
                    if let framing = Self.framing(named: name) {
                        state = .interestingValue(framing)
                    } else {
                        state = .skippingLine(then: .header)
                    }
                } else if byte == UInt8(ascii: "\n") {
                    state = .passthrough
                } else {
                    if name.count < 32 { name.append(byte) } else { state = .skippingLine(then: .header) }
                    offset += 1
                }
            case .interestingValue(let framing):
                offset += 1
                if byte == UInt8(ascii: "\n") {
                    guard record(framing) else {
                        state = .passthrough
                        continue
                    }
                    state = .headerLineStart
                } else if byte == UInt8(ascii: "\r") {
                    continue
                } else if value.count < 256 {
                    value.append(byte)
                } else {
                    state = .passthrough
                }
            case .skippingLine(let then):
                guard let end = Self.lineEnd(in: bytes, from: offset) else {
                    offset = count
                    continue
                }
                offset = end + 1
                state = then == .header ? .headerLineStart : .trailerLineStart
            case .fixedBody(let remaining):
                let taken = min(remaining, count - offset)
                offset += taken
                state = remaining == taken ? .requestStart : .fixedBody(remaining: remaining - taken)
            case .chunkSize(let size, let sawDigit, let inExtension):
                offset += 1
                if byte == UInt8(ascii: "\n") {
                    guard sawDigit else {
                        state = .passthrough
                        continue
                    }
                    state = size == 0 ? .trailerLineStart : .chunkData(remaining: size)
                } else if inExtension || byte == UInt8(ascii: "\r") {
                    continue
                } else if byte == UInt8(ascii: ";") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                    state = .chunkSize(size: size, sawDigit: sawDigit, inExtension: true)
                } else if let digit = Self.hexDigit(byte), size <= (Int.max - 15) / 16 {
                    state = .chunkSize(size: size * 16 + digit, sawDigit: true, inExtension: false)
                } else {
                    state = .passthrough
                }
            case .chunkData(let remaining):
                let taken = min(remaining, count - offset)
                offset += taken
                state = remaining == taken ? .chunkDataEnd : .chunkData(remaining: remaining - taken)
            case .chunkDataEnd:
                offset += 1
                if byte == UInt8(ascii: "\n") {
                    state = .chunkSize(size: 0, sawDigit: false, inExtension: false)
                } else if byte != UInt8(ascii: "\r") {
                    state = .passthrough
                }
            case .trailerLineStart:
                if byte == UInt8(ascii: "\r") {
                    offset += 1
                } else if byte == UInt8(ascii: "\n") {
                    offset += 1
                    state = .requestStart
                } else {
                    state = .skippingLine(then: .trailer)
                }
            }
        }
        if !token.isEmpty, case .requestStart = state {
            // The read ends inside a method token: keep it for the next read.
            if var output {
                let tokenStartInRead = max(0, count - token.count)
                if tokenStartInRead > copiedUpTo { output.append(contentsOf: bytes[copiedUpTo..<tokenStartInRead]) }
                return .rewritten(output)
            }
            return .heldBack(min(token.count, count))
        }
        guard var output else { return .unchanged }
        if copiedUpTo < count { output.append(contentsOf: bytes[copiedUpTo..<count]) }
        return .rewritten(output)
    }

    /// When the request at `start` has a method the parser knows (not `CONNECT`) and its whole head is in
    /// this read, follows the head by its lines (a line's first byte is enough to pass over most
    /// headers) and returns the offset after it, the state set for its body; `nil` otherwise, for the
    /// byte-by-byte walk. Nothing is copied: the read goes on unchanged.
    private func followCommonHead(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, let methodLength = Self.commonMethodLength(bytes, at: start) else { return nil }
        let count = bytes.count
        guard var line = Self.lineEnd(base, from: start + methodLength, count: count).map({ $0 + 1 }) else { return nil }
        contentLength = nil
        chunked = false
        upgrades = false
        while line < count {
            let first = bytes[line]
            if first == UInt8(ascii: "\n") || (first == UInt8(ascii: "\r") && line + 1 < count && bytes[line + 1] == UInt8(ascii: "\n")) {
                let next = line + (first == UInt8(ascii: "\n") ? 1 : 2)
                isConnect = false
                rewrites.beginRequest()
                endHead()
                return next
            }
            // A folded line (obsolete) is left to the byte-by-byte walk, which gives up on it.
            if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { return nil }
            guard let end = Self.lineEnd(base, from: line, count: count) else { return nil }
            // Only Content-Length, Transfer-Encoding and Upgrade matter, and only their first letters are
            // looked at for every other line.
            if Self.mayNameFraming(first) {
                guard let colon = (line..<end).first(where: { bytes[$0] == UInt8(ascii: ":") }) else { return nil }
                if let framing = Self.framing(named: bytes[line..<colon]) {
                    value.removeAll(keepingCapacity: true)
                    value.append(contentsOf: bytes[(colon + 1)..<end].filter { $0 != UInt8(ascii: "\r") })
                    guard value.count <= 256, record(framing) else { return nil }
                }
            }
            line = end + 1
        }
        return nil
    }

    /// The length of `GET `, `POST `… (a method the parser knows, `CONNECT` aside, and its space) at
    /// `offset`, or `nil`.
    private static func commonMethodLength(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        for method in commonMethods where bytes.count - offset > method.count {
            var equal = true
            for index in 0..<method.count where bytes[offset + index] != method[index] {
                equal = false
                break
            }
            if equal { return method.count }
        }
        return nil
    }

    private static let commonMethods: [[UInt8]] = ["GET ", "POST ", "PUT ", "DELETE ", "HEAD ", "PATCH ", "OPTIONS "].map { Array($0.utf8) }

    /// The offset of the next line feed at or after `start` (memchr), or `nil`.
    private static func lineEnd(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int? {
        guard start < count, let found = memchr(base + start, 0x0A, count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// A method token ended at `end` (the space after it) in this read: writes it, or its substitute,
    /// and starts the request line.
    private func finishMethod(in bytes: UnsafeRawBufferPointer, endingAt end: Int, output: inout [UInt8]?, copiedUpTo: inout Int) {
        let method = token
        // The part of the token in this read starts here; the rest came in earlier reads and was held.
        let startInRead = max(0, end - method.count)
        let heldCount = method.count - (end - startInRead)
        isConnect = method == Self.connect
        rewrites.beginRequest()
        let passed = Self.passedMethods.contains(method)
        if passed, heldCount == 0 {
            state = .requestLine
            return
        }
        var written = output ?? []
        if startInRead > copiedUpTo { written.append(contentsOf: bytes[copiedUpTo..<startInRead]) }
        if passed {
            written.append(contentsOf: method)
        } else {
            written.append(contentsOf: Self.substitute)
            rewrites.noteRewrite(String(decoding: method, as: UTF8.self))
        }
        copiedUpTo = end
        output = written
        state = .requestLine
    }

    /// Gives up mid-token: the held part of the token goes out before the byte at `offset`.
    private func flushToken(into output: inout [UInt8]?, bytes: UnsafeRawBufferPointer, copiedUpTo: inout Int, offset: Int) {
        let startInRead = max(0, offset - token.count)
        let heldCount = token.count - (offset - startInRead)
        if heldCount > 0 {
            var written = output ?? []
            written.append(contentsOf: token.prefix(heldCount))
            copiedUpTo = startInRead
            output = written
        }
        token.removeAll()
    }

    private func beginHead() {
        contentLength = nil
        chunked = false
        upgrades = false
        state = .headerLineStart
    }

    /// The head ended: the body's framing decides where the next request starts.
    private func endHead() {
        if isConnect || upgrades {
            state = .passthrough
        } else if chunked {
            state = contentLength == nil ? .chunkSize(size: 0, sawDigit: false, inExtension: false) : .passthrough
        } else if let contentLength, contentLength > 0 {
            state = .fixedBody(remaining: contentLength)
        } else {
            state = .requestStart
        }
    }

    /// Takes in a framing header's value; `false` when it cannot be followed.
    private func record(_ framing: Framing) -> Bool {
        let text = String(decoding: value, as: UTF8.self).trimmingHTTPWhitespace
        switch framing {
        case .contentLength:
            guard let length = Int(text), length >= 0, contentLength == nil || contentLength == length else { return false }
            contentLength = length
        case .transferEncoding:
            let last = text.split(separator: ",").last.map { String($0).trimmingHTTPWhitespace.lowercased() }
            guard last == "chunked" else { return false }
            chunked = true
        case .upgrade:
            upgrades = true
        }
        return true
    }

    /// Whether a header line starting with `byte` may name a framing header (`Content-Length`,
    /// `Transfer-Encoding`, `Upgrade`); every other line is passed over without reading its name.
    private static func mayNameFraming(_ byte: UInt8) -> Bool {
        switch byte | 0x20 {
        case UInt8(ascii: "c"), UInt8(ascii: "t"), UInt8(ascii: "u"): true
        default: false
        }
    }

    private static func framing(named name: some Collection<UInt8>) -> Framing? {
        switch name.count {
        case 14 where equalsIgnoringCase(name, "content-length"): .contentLength
        case 17 where equalsIgnoringCase(name, "transfer-encoding"): .transferEncoding
        case 7 where equalsIgnoringCase(name, "upgrade"): .upgrade
        default: nil
        }
    }

    private static func equalsIgnoringCase(_ bytes: some Collection<UInt8>, _ lowercase: StaticString) -> Bool {
        lowercase.withUTF8Buffer { expected in
            bytes.count == expected.count && zip(bytes, expected).allSatisfy { ($0 | 0x20) == $1 || $0 == $1 }
        }
    }

    /// The offset of the next line feed at or after `start`.
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        bytes.baseAddress.flatMap { lineEnd($0, from: start, count: bytes.count) }
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// RFC 9110's `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: tokenSymbols.contains(byte)
        }
    }

    private static let tokenSymbols: [UInt8] = Array("!#$%&'*+-.^_`|~".utf8)
}

/// The methods ``CustomMethodRewriter`` replaced on one connection, for the connection handler to put
/// back: both run on the connection's event loop, one request apart at most.
final class MethodRewrites {
    // Unchecked for the rewriter's reason: its two handlers use it on one event loop, and its methods
    // call nothing that could come back to it.
    /// Requests whose start the rewriter has passed.
    @exclusivity(unchecked) private var started = 0
    /// Heads the connection handler has taken.
    @exclusivity(unchecked) private var taken = 0
    /// (request number, original method), oldest first.
    @exclusivity(unchecked) private var pending: [(request: Int, method: String)] = []

    /// The rewriter passed a request's method.
    func beginRequest() {
        started += 1
    }

    /// The request just begun had `method`, replaced by the substitute.
    func noteRewrite(_ method: String) {
        pending.append((started - 1, method))
    }

    /// Puts the original method back on the next parsed head, when it was replaced.
    func restore(_ head: inout HTTPRequestHead) {
        let number = taken
        taken += 1
        guard let first = pending.first, first.request == number else { return }
        pending.removeFirst()
        head.method = HTTPMethod(rawValue: first.method)
    }
}
