import ArgumentParser
import Foundation
import Tonearm

/// `tonearm key`: prints a request's canonical form and key, to debug why two requests do or do not match.
struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print a request's canonical form and key.",
        discussion: """
            Give the request with flags, or as a JSON document on standard input when --url is absent:
              {"method": "POST", "url": "https://…", "headers": {"Content-Type": "application/json"}, "body": {…}}
            "headers" may also be a list of [name, value] pairs; a string "body" is sent as is, any other
            JSON value as its JSON text.
            """
    )

    @Option(help: "The request method.") var method: String = "GET"
    @Option(help: "The request URL; when absent, the request is read as JSON from standard input.") var url: String?
    @Option(name: .customLong("header"), help: "A header as 'Name: value' (repeatable).") var headers: [String] = []
    @Option(help: "The request body as text.") var body: String?
    @Option(name: .customLong("body-file"), help: "Read the request body from this file.") var bodyFile: String?
    @OptionGroup var matching: MatchingOptions
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() throws {
        let request = try readRequest()
        let canonicalizer = RequestCanonicalizer(try matching.configuration())
        let canonical = canonicalizer.canonicalize(request)
        let key = RequestKey(canonicalBytes: canonical.bytes)
        if json {
            try printJSON(canonical: canonical, key: key)
        } else {
            print("key: \(key.hex)")
            print("canonical form (\(canonical.bytes.count) bytes):")
            for line in canonical.description.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                print("  \(line)")
            }
            for note in canonical.notes { print("note: \(note)") }
        }
    }

    private func readRequest() throws -> Request {
        guard let url else {
            return try RequestDocument.decode(Array(FileHandle.standardInput.readDataToEndOfFile()))
        }
        var fields: [HeaderField] = []
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else {
                throw ValidationError("--header '\(header)' must look like 'Name: value'")
            }
            fields.append(HeaderField(String(header[..<colon]), String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        var bytes = Array((body ?? "").utf8)
        if let bodyFile {
            guard let data = FileManager.default.contents(atPath: bodyFile) else {
                throw ValidationError("--body-file \(bodyFile): cannot read the file")
            }
            bytes = Array(data)
        }
        return Request(method: method, url: url, headers: fields, body: bytes)
    }

    private func printJSON(canonical: CanonicalRequest, key: RequestKey) throws {
        struct Output: Encodable {
            var key: String
            var canonical: String
            var fields: [[String]]
            var notes: [String]
        }
        let output = Output(
            key: key.hex, canonical: canonical.description,
            fields: canonical.fields.map { [$0.label, String(decoding: $0.value, as: UTF8.self)] },
            notes: canonical.notes.map(\.message))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(output), as: UTF8.self))
    }
}
