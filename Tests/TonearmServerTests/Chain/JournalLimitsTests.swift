import Foundation
import Testing
import Tonearm
import TonearmTestSupport
@testable import TonearmServer
import TonearmServerTestSupport

/// The journal's memory: bounded in entries and in bytes, large bodies kept cut short and marked so,
/// and nothing kept once it is cleared.
@Suite("Server: journal limits")
struct JournalLimitsTests {
    private static let mebibyte = 1 << 20

    private static func upload(_ number: Int, size: Int = mebibyte) -> JournalEntry {
        JournalEntry(
            time: Date(), request: Request(method: "POST", url: "/upload/\(number)", body: Array(repeating: 0x61, count: size)),
            response: .response(Response(status: 404, body: Array(repeating: 0x62, count: size))),
            source: JournalEntry.Source(kind: .miss, detail: "not recorded"), latency: .zero)
    }

    @Test("300 uploads of 1 MiB stay under the byte cap, bodies cut to 64 KiB and marked; clearing empties it")
    func byteCap() {
        let cap = 8 * Self.mebibyte
        let journal = Journal(limit: 10_000, maximumBytes: cap)
        for number in 0..<300 { journal.append(Self.upload(number)) }
        #expect(journal.bytes <= cap)
        #expect(journal.bytes > cap / 2)
        let entries = journal.entries
        #expect(entries.count < 300)
        #expect(entries.last?.request.url == "/upload/299")
        #expect(entries.allSatisfy { $0.request.body.count == Journal.storedBodyLimit && $0.response?.body.count == Journal.storedBodyLimit })
        #expect(entries.last?.truncation == JournalEntry.Truncation(requestBodyBytes: Self.mebibyte, responseBodyBytes: Self.mebibyte))
        #expect(journal.total == 300)
        journal.clear()
        #expect(journal.entries.isEmpty)
        #expect(journal.misses.isEmpty)
        #expect(journal.bytes == 0)
    }

    @Test("Small entries are kept whole and unmarked; the entry cap still holds")
    func smallEntries() {
        let journal = Journal(limit: 5, maximumBytes: Self.mebibyte)
        for number in 0..<20 { journal.append(Self.upload(number, size: 100)) }
        #expect(journal.entries.map(\.request.url) == (15..<20).map { "/upload/\($0)" })
        #expect(journal.entries.allSatisfy { $0.truncation == nil && $0.request.body.count == 100 })
    }

    @Test("Through the server: large misses are marked truncated in the control API's and the HAR journal")
    func markedThroughTheServer() async throws {
        var configuration = quietConfiguration()
        configuration.journal.maximumBytes = 2 * Self.mebibyte
        let server = try await TonearmServer.start(configuration)
        let base = server.baseURL.absoluteString
        let body = String(repeating: "x", count: Self.mebibyte)
        for number in 0..<40 {
            #expect(try await TestClient.send(base + "/upload/\(number)", method: "POST", body: body).status == 404)
        }
        #expect(server.core.journal.bytes <= 2 * Self.mebibyte)
        let listed = try await TestClient.send(base + "/__tonearm/journal")
        #expect(listed.text.contains(#""truncated":{"requestBodyBytes":1048576}"#))
        #expect(listed.text.contains(#""url":"/upload/39""#))
        #expect(!listed.text.contains(#""url":"/upload/0""#))
        let har = try await TestClient.send(base + "/__tonearm/journal.har")
        #expect(har.text.contains("request body cut from 1048576 bytes"))
        #expect(try await TestClient.send(base + "/__tonearm/journal", method: "DELETE").status == 204)
        #expect(server.journal.isEmpty)
        #expect(server.core.journal.bytes == 0)
        #expect(server.misses.isEmpty)
        try await server.stop()
    }
}

@Suite(
    "tonearm serve: journal memory", .serialized,
    .enabled(if: builtExecutable("tonearm") != nil && FileManager.default.fileExists(atPath: "/proc/self/status"), "needs the tonearm executable and /proc"))
struct JournalMemoryProcessTests {
    /// The process's resident memory in bytes, from /proc/PID/status.
    private static func residentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { throw CocoaError(.fileReadCorruptFile) }
        return kilobytes * 1024
    }

    @Test("300 POSTs of 1 MiB to tonearm serve keep its resident memory within the journal's cap plus a margin")
    func residentMemory() async throws {
        let cap = 16 << 20
        let server = try await ServeProcess(["--journal-max-bytes", "\(cap)"])
        let pid = server.process.processIdentifier
        #expect(try await TestClient.send(server.url + "/__tonearm/health").status == 200)
        let before = try Self.residentBytes(pid)
        let body = String(repeating: "x", count: 1 << 20)
        for number in 0..<300 {
            _ = try await TestClient.send(server.url + "/upload/\(number)", method: "POST", body: body)
        }
        let after = try Self.residentBytes(pid)
        let journal = try await TestClient.send(server.url + "/__tonearm/journal")
        #expect(journal.text.contains(#""url":"/upload/299""#))
        // The margin covers a few request buffers in flight and the allocator's slack; without the byte
        // cap the journal alone held 600 MB.
        #expect(after - before < cap + (48 << 20), "resident memory grew from \(before >> 20) MiB to \(after >> 20) MiB")
        #expect(try await server.stop().status == 0)
    }
}
