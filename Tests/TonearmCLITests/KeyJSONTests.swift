import Foundation
import Testing
import TonearmTestSupport

/// `tonearm key --json` writes its JSON as it goes: large bodies must come out whole and decoded
/// exactly as the text form decodes them.
@Suite("tonearm key --json", .enabled(if: TonearmExecutable.url != nil, TonearmExecutable.missingMessage))
struct KeyJSONTests {
    @Test("a large body with multi-byte and ill-formed UTF-8 across write boundaries comes out as decoded text")
    func largeBody() async throws {
        // Three-byte characters straddle every 64 KiB boundary; a lone continuation byte and a cut
        // sequence must each become U+FFFD, as String(decoding:as:) makes them.
        var body: [UInt8] = []
        while body.count < 300_000 { body += Array("é€ \"q\"\t".utf8) }
        body += [0x80, 0x41, 0xE2, 0x82, 0x42]
        let folder = try TemporaryFolder()
        let file = folder.file("body.bin")
        try Data(body).write(to: file)
        let run = try await TonearmExecutable.run(["key", "--json", "--method", "POST", "--url", "https://a.example/", "--body-file", file.path])
        #expect(run.status == 0)
        let output = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let fields = try #require(output["fields"] as? [[String]])
        #expect(fields.last?.first == "body:raw")
        #expect(fields.last?.last == String(decoding: body, as: UTF8.self))
        let canonical = try #require(output["canonical"] as? String)
        #expect(canonical.hasSuffix(" " + String(decoding: body, as: UTF8.self) + "\n"))
        #expect((output["key"] as? String)?.count == 16)
        #expect((output["notes"] as? [String]) == [])
    }
}
