import Foundation
import Tonearm

extension HARFormat {
    /// The cassette as a HAR 1.2 log that browser devtools and HAR viewers open.
    ///
    /// Binary bodies are written base64 with `encoding: "base64"` (for request bodies too, which HAR
    /// viewers show as text); transport errors become status 0 with Chrome's `_error` name
    /// (plus `_errorCode` for errors that have no Chrome name, so they import back unchanged). An error
    /// names the path of the first value that would not load back (see ``NativeFormat/encode(_:)``).
    public static func encode(_ cassette: Cassette, creatorVersion: String = "1") throws(CassetteError) -> [UInt8] {
        var document: [UInt8] = []
        try encode(cassette, creatorVersion: creatorVersion) { (chunk) throws(CassetteError) in document += chunk }
        return document
    }

    /// Writes the cassette as HAR to `url`, atomically, streaming: entries go to the file as they are
    /// encoded, so memory stays flat however many tracks the cassette has.
    public static func write(_ cassette: Cassette, to url: URL, creatorVersion: String = "1") throws(CassetteError) {
        do {
            try AtomicFile.write(to: url) { (append) throws(CassetteError) in
                try encode(cassette, creatorVersion: creatorVersion, emit: append)
            }
        } catch {
            throw error.inFile(url.path)
        }
    }

    /// Bytes up to which entries are gathered before they are handed on: large enough that a write
    /// costs little per entry, small enough that memory does not grow with the cassette.
    static let chunkSize = 1 << 16

    /// The HAR document, handed to `emit` in chunks of about ``chunkSize`` bytes. The layout is
    /// `JSONOutput`'s pretty printing, written here level by level so only one entry is built at a time.
    static func encode(
        _ cassette: Cassette, creatorVersion: String, emit: ([UInt8]) throws(CassetteError) -> Void
    ) throws(CassetteError) {
        let creator: JSONOutput = .object([("name", .string("Tonearm")), ("version", .string(creatorVersion))])
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkSize + chunkSize / 4)
        chunk += "{\n  \"log\": {\n    \"version\": \"1.2\",\n    \"creator\": ".utf8
        creator.write(to: &chunk, level: 2)
        chunk += ",\n    \"entries\": [".utf8
        for (index, entry) in cassette.entries.enumerated() {
            let output = try entryOutput(entry, at: "$.tracks[\(index)]")
            chunk += (index == 0 ? "\n      " : ",\n      ").utf8
            output.write(to: &chunk, level: 3)
            if chunk.count >= chunkSize {
                try emit(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk += (cassette.entries.isEmpty ? "]\n  }\n}\n" : "\n    ]\n  }\n}\n").utf8
        try emit(chunk)
    }

    private static func entryOutput(_ entry: CassetteEntry, at path: String) throws(CassetteError) -> JSONOutput {
        try RecordedLimits.check(entry, at: path)
        let started = Timestamp.cassetteText(entry.recordedAt ?? Date(timeIntervalSince1970: 0)) ?? ""
        let wait = entry.track.delay.flatMap(RecordedLimits.milliseconds) ?? 0
        var members: [(String, JSONOutput)] = [
            ("startedDateTime", .string(started)),
            ("time", .int(wait)),
            ("request", requestOutput(entry.track.request)),
            ("response", responseOutput(entry.track.outcome, pacing: entry.track.pacing)),
            ("cache", .object([])),
            ("timings", .object([("send", .int(0)), ("wait", .int(wait)), ("receive", .int(0))])),
        ]
        if let name = entry.track.name { members.append(("comment", .string(name))) }
        if let conversation = entry.track.webSocket {
            members += HARWebSocketMessages.output(conversation, startedAt: entry.recordedAt ?? Date(timeIntervalSince1970: 0))
        }
        return .object(members)
    }

    private static func requestOutput(_ request: Request) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("method", .string(request.method)),
            ("url", .string(request.url)),
            ("httpVersion", .string("HTTP/1.1")),
            ("cookies", .array([])),
            ("headers", headersOutput(request.headers)),
            ("queryString", .array(queryPairs(request.url).map { pairOutput($0.name, $0.value) })),
        ]
        if !request.body.isEmpty {
            var postData: [(String, JSONOutput)] = [("mimeType", .string(request.headers.first(named: "Content-Type") ?? ""))]
            postData += textMembers(request.body)
            members.append(("postData", .object(postData)))
        }
        members += [("headersSize", .int(-1)), ("bodySize", .int(request.body.count))]
        return .object(members)
    }

    /// The response; a paced body's parts in `_tonearmParts` (HAR readers ignore members starting `_`).
    private static func responseOutput(_ outcome: Track.Outcome, pacing: BodyPacing?) -> JSONOutput {
        switch outcome {
        case .transportError(let error):
            var code: [(String, JSONOutput)] = []
            if let number = error.platformCode { code = [("_errorCode", .int(number))] }
            return .object([
                ("status", .int(0)), ("statusText", .string("")), ("httpVersion", .string("")),
                ("cookies", .array([])), ("headers", .array([])),
                ("content", .object([("size", .int(0)), ("mimeType", .string("x-unknown"))])),
                ("redirectURL", .string("")), ("headersSize", .int(-1)), ("bodySize", .int(-1)),
                ("_error", .string(ChromeNetError.name(error))),
            ] + code)
        case .response(let response):
            var content: [(String, JSONOutput)] = [
                ("size", .int(response.body.count)),
                ("mimeType", .string(response.headers.first(named: "Content-Type") ?? "x-unknown")),
            ]
            if !response.body.isEmpty { content += textMembers(response.body) }
            var members: [(String, JSONOutput)] = [
                ("status", .int(response.status)), ("statusText", .string("")), ("httpVersion", .string("HTTP/1.1")),
                ("cookies", .array([])), ("headers", headersOutput(response.headers)), ("content", .object(content)),
                ("redirectURL", .string(response.headers.first(named: "Location") ?? "")),
                ("headersSize", .int(-1)), ("bodySize", .int(response.body.count)),
            ]
            if let pacing { members.append(("_tonearmParts", NativeStreamCodec.partsOutput(pacing, bodyCount: response.body.count))) }
            return .object(members)
        }
    }

    private static func textMembers(_ body: [UInt8]) -> [(String, JSONOutput)] {
        if let text = BodyStorage.readableText(body) { return [("text", .string(text))] }
        return [("text", .string(Base64.encode(body))), ("encoding", .string("base64"))]
    }

    private static func headersOutput(_ headers: [HeaderField]) -> JSONOutput {
        .array(headers.map { pairOutput($0.name, $0.value) })
    }

    private static func pairOutput(_ name: String, _ value: String) -> JSONOutput {
        .object([("name", .string(name)), ("value", .string(value))])
    }

    /// The query of `url` as decoded pairs, for HAR's informational `queryString`; split and read by the
    /// core's URL and form rules, so the pairs are the ones matching compares.
    private static func queryPairs(_ url: String) -> [(name: String, value: String)] {
        guard let query = NormalizedURL(url).query else { return [] }
        return FormEncoding.pairs(query).map { ($0.decodedName, $0.decodedValue) }
    }
}
