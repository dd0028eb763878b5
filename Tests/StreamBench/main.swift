// The native sides of the stream benchmarks, on NIO alone (no Tonearm code):
//
//   StreamBench echo-server                 a plain NIO WebSocket echo server (NIO's server upgrader, one
//                                           event loop): every text or binary message sent back; prints its port
//   StreamBench websocket-load URL CONNECTIONS SECONDS MESSAGE
//                                           CONNECTIONS sockets to URL (ws://127.0.0.1:PORT/path), each
//                                           sending MESSAGE and awaiting an answer, again and again, for
//                                           SECONDS; prints one JSON line: messages a second, latency p50/p99
//   StreamBench sse-load PORT PATH STREAMS RAMP_MS OFFSETS_MS
//                                           STREAMS Server-Sent Events requests for PATH on 127.0.0.1:PORT,
//                                           started evenly over RAMP_MS (0: all at once); each event's
//                                           arrival checked against OFFSETS_MS (comma-separated, the
//                                           recorded times) on its stream's schedule; prints one JSON
//                                           line: pacing error p50/p99/max
//
// scripts/bench-websockets.sh and scripts/bench-streams.sh run them.
import Foundation

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "echo-server":
    try echoServer()
case "websocket-load" where arguments.count == 6:
    try webSocketLoad(url: arguments[2], connections: max(1, Int(arguments[3]) ?? 1), seconds: max(1, Int(arguments[4]) ?? 5), message: arguments[5])
case "sse-load" where arguments.count == 7:
    try serverSentEventsLoad(
        port: Int(arguments[2]) ?? 0, path: arguments[3], streams: max(1, Int(arguments[4]) ?? 1),
        rampMilliseconds: max(0, Int(arguments[5]) ?? 0), offsetsMilliseconds: arguments[6].split(separator: ",").compactMap { Int64($0) })
default:
    FileHandle.standardError.write(Data("""
        usage: StreamBench echo-server
               StreamBench websocket-load URL CONNECTIONS SECONDS MESSAGE
               StreamBench sse-load PORT PATH STREAMS RAMP_MS OFFSETS_MS

        """.utf8))
    exit(2)
}
