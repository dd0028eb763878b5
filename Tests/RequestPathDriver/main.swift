// The request path of `tonearm serve` in one process, for scripts/server-instructions.sh: the server's
// own handlers on an `EmbeddedChannel`, fed pre-encoded keep-alive GETs as wrk sends them, answers read
// and dropped. No sockets, threads or timers run, so callgrind's instruction count and heaptrack's
// allocation count per request are the same on a loaded machine as on a quiet one.
//
//   RequestPathDriver replay CASSETTE [PATHS] COUNT   GET /bench.local/items/N, N cycling over PATHS
//                                                    tracks (64 unless given) in a scattered order
//   RequestPathDriver stub RULES [PATHS] COUNT        GET /stub/items/N, answered by a rule of the rule file
//
// COUNT requests are counted after max(1,100, PATHS) that fill the journal (the benchmarks'
// --journal-limit 1000) and have every path answered once (a replayed answer is encoded on its first
// use), so the steady state, where each entry journaled drops the oldest, is what is measured.
import Foundation
import NIOCore
import NIOEmbedded
import TonearmServer

let arguments = Array(CommandLine.arguments.dropFirst())
guard (3...4).contains(arguments.count), let count = Int(arguments[arguments.count - 1]),
    let spread = arguments.count == 4 ? Int(arguments[2]) : 64, spread > 0, ["replay", "stub"].contains(arguments[0])
else {
    FileHandle.standardError.write(Data("usage: RequestPathDriver replay|stub FILE [PATHS] COUNT\n".utf8))
    exit(2)
}
let file = URL(fileURLWithPath: arguments[1])
let replay = arguments[0] == "replay"
let configuration = ServerConfiguration(
    cassette: replay ? file : nil, rules: replay ? [] : [file], journal: .init(limit: 1000), log: { _ in })
let channel = EmbeddedChannel()
let harness = try RequestPathHarness(configuration: configuration, group: channel.embeddedEventLoop)
try harness.configure(channel)
try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40000)).wait()

let prefix = replay ? "/bench.local/items/" : "/stub/items/"

/// One request per track of `spread`, in a fixed scattered order (as wrk's seeded random paths spread
/// over the whole cassette, so that a large `spread` shows what a cassette too large for the caches costs).
let requests = (0..<spread).map { index in
    ByteBuffer(string: "GET \(prefix)\((index &* 7919) % spread) HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n")
}

/// Sends `count` requests; returns the bytes answered and the first answer's status line.
func run(_ count: Int) throws -> (bytes: Int, statusLine: String) {
    var bytes = 0
    var statusLine = ""
    for index in 0..<count {
        try channel.writeInbound(requests[index % requests.count])
        while let part = try channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(let buffer) = part else { continue }
            if statusLine.isEmpty { statusLine = String(buffer: buffer).prefix { $0 != "\r\n" }.description }
            bytes += buffer.readableBytes
        }
    }
    return (bytes, statusLine)
}

let warmUp = try run(max(1100, spread))
let counted = try run(count)
print("\(warmUp.statusLine); \(counted.bytes) bytes answered to \(count) requests")
