import Foundation
import Synchronization
import Testing
import Tonearm
@testable import TonearmServer

/// A streamed exchange's journal entry: made when its head goes out, completed once the stream ends
/// (a relayed body whole, a WebSocket's conversation), within the journal's limits, and announced to
/// the inspector's feed.
@Suite("Server: journal entries of streams")
struct JournalStreamTests {
    private static func head(_ path: String, status: Int = 200) -> JournalEntry {
        JournalEntry(
            time: Date(), request: Request(url: "https://api.example.com\(path)"),
            response: .response(Response(status: status, headers: [HeaderField("Content-Type", "text/event-stream")])),
            source: JournalEntry.Source(kind: .network, detail: "https://api.example.com"), latency: .milliseconds(3))
    }

    @Test("A relayed stream's entry gets its whole body and parts when it ends; a long one is cut to the body limit with its parts cut alike")
    func relayedBody() throws {
        let journal = Journal(limit: 100, maximumBytes: 1 << 24)
        let short = journal.appendStreamHead(Self.head("/events"))
        let long = journal.appendStreamHead(Self.head("/firehose"))
        #expect(journal.entry(short)?.pacing == nil)
        let events = Array("data: a\n\ndata: b\n\n".utf8)
        journal.complete(short, with: .body(
            Response(status: 200, headers: [HeaderField("Content-Type", "text/event-stream")], body: events),
            BodyPacing(parts: [.init(offset: .milliseconds(10), byteCount: 9), .init(offset: .milliseconds(510), byteCount: 9)])))
        let completed = try #require(journal.entry(short))
        #expect(completed.response?.body == events)
        #expect(completed.pacing?.parts.map(\.offset) == [.milliseconds(10), .milliseconds(510)])
        #expect(completed.latency == .milliseconds(3), "the latency stays the head's: a HAR export's time is waited before replay")

        // A large upload's cut, noted when the head was journaled, is kept when the entry is completed.
        var upload = Self.head("/upload")
        upload.request.body = Array(repeating: 0x61, count: 100_000)
        let uploaded = journal.appendStreamHead(upload)
        journal.complete(uploaded, with: .body(Response(status: 200, body: Array("ok".utf8)), nil))
        #expect(journal.entry(uploaded)?.truncation == JournalEntry.Truncation(requestBodyBytes: 100_000))
        #expect(journal.entry(uploaded)?.request.body.count == Journal.storedBodyLimit)

        // 100 parts of 1 KiB, past the 64 KiB a relayed stream's entry keeps.
        let body = Array(repeating: UInt8(ascii: "x"), count: 100 * 1024)
        journal.complete(long, with: .body(
            Response(status: 200, body: body),
            BodyPacing(parts: (0..<100).map { BodyPacing.Part(offset: .milliseconds($0), byteCount: 1024) })))
        let cut = try #require(journal.entry(long))
        #expect(cut.response?.body.count == Journal.storedBodyLimit)
        #expect(cut.truncation?.responseBodyBytes == 100 * 1024)
        #expect(cut.pacing?.parts.count == 64)
        #expect(cut.pacing?.parts.reduce(0) { $0 + $1.byteCount } == Journal.storedBodyLimit)
        #expect(journal.bytes > 64 * 1024)
    }

    @Test("A WebSocket's entry gets its conversation; payloads past the body limit are left out and counted; the journal's HAR export has the conversation")
    func conversation() throws {
        let journal = Journal(limit: 100, maximumBytes: 1 << 24)
        let socket = journal.appendStreamHead(Self.head("/socket", status: 101))
        let big = Array(repeating: UInt8(ascii: "y"), count: 40 * 1024)
        let conversation = WebSocketConversation(
            messages: [
                .text(.server, "welcome", at: .milliseconds(5)),
                .binary(.client, big, at: .milliseconds(20)),
                .binary(.server, big, at: .milliseconds(30)),
                .text(.client, "bye", at: .milliseconds(40)),
            ],
            close: WebSocketConversation.Close(.client, code: 1000, offset: .milliseconds(41)))
        journal.complete(socket, with: .webSocket(conversation, leftOut: 2))
        let entry = try #require(journal.entry(socket))
        #expect(entry.webSocket?.messages.count == 2, "the second 40 KiB message passes 64 KiB: it and what follows are left out")
        #expect(entry.webSocketMessagesLeftOut == 4)
        #expect(entry.webSocket?.close == conversation.close)

        let har = String(decoding: try journal.har(redacting: .default), as: UTF8.self)
        #expect(har.contains("_webSocketMessages"))
        #expect(har.contains("welcome"))
    }

    @Test("The feed learns which entries were completed since it last looked; further behind than the journal remembers, it is told to reload")
    func completions() throws {
        let journal = Journal(limit: 5_000, maximumBytes: 1 << 26)
        let first = journal.appendStreamHead(Self.head("/a"))
        let second = journal.appendStreamHead(Self.head("/b"))
        #expect(journal.completionCount == 0)
        journal.complete(second, with: .webSocket(WebSocketConversation(), leftOut: 0))
        journal.complete(first, with: .webSocket(WebSocketConversation(), leftOut: 0))
        let (entries, count) = journal.completed(after: 0)
        #expect(entries?.map(\.sequence) == [second, first])
        #expect(count == 2)
        #expect(journal.completed(after: 2).entries?.isEmpty == true)

        for _ in 0..<(Journal.updatesKept + 1) { journal.complete(first, with: .webSocket(WebSocketConversation(), leftOut: 0)) }
        #expect(journal.completed(after: 2).entries == nil)
        #expect(journal.completed(after: journal.completionCount - 1).entries?.map(\.sequence) == [first])
        // An entry the caps dropped is completed as nothing.
        journal.clear()
        journal.complete(first, with: .webSocket(WebSocketConversation(), leftOut: 0))
        #expect(journal.entry(first) == nil)
    }

    @Test("A stream that ends before its head is journaled is delivered once the receiver asks; a second end is ignored")
    func outcomeEitherOrder() {
        let early = StreamOutcome()
        early.end(.webSocket(WebSocketConversation(messages: [.text(.client, "a")]), leftOut: 0))
        early.end(.webSocket(WebSocketConversation(), leftOut: 0))
        let received = Mutex<[Int]>([])
        early.whenEnded { value in
            if case .webSocket(let conversation, _) = value { received.withLock { $0.append(conversation.messages.count) } }
        }
        let late = StreamOutcome()
        late.whenEnded { value in
            if case .webSocket(let conversation, _) = value { received.withLock { $0.append(conversation.messages.count + 10) } }
        }
        late.end(.webSocket(WebSocketConversation(messages: [.text(.client, "a"), .text(.client, "b")]), leftOut: 0))
        late.end(.webSocket(WebSocketConversation(), leftOut: 0))
        #expect(received.withLock { $0 } == [1, 12])
    }

    @Test("A replay's transcript keeps messages up to its byte limit, then counts the rest; only the first close counts")
    func transcriptBound() {
        var transcript = WebSocketTranscript(byteLimit: 10)
        transcript.add(.server, .text, Array("hello".utf8), at: .milliseconds(1))
        transcript.add(.client, .binary, [1, 2, 3, 4], at: .milliseconds(2))
        // Past the limit: left out, and so is everything after it, even a message that would fit.
        transcript.add(.server, .text, Array("too long".utf8), at: .milliseconds(3))
        transcript.add(.client, .text, [], at: .milliseconds(4))
        transcript.closed(by: .client, code: 1000, reason: "bye", at: .milliseconds(5))
        transcript.closed(by: .server, code: 1001, reason: "", at: .milliseconds(6))
        #expect(transcript.conversation.messages.map(\.payload) == [Array("hello".utf8), [1, 2, 3, 4]])
        #expect(transcript.leftOut == 2)
        #expect(transcript.conversation.close == WebSocketConversation.Close(.client, code: 1000, reason: "bye", offset: .milliseconds(5)))
    }
}
