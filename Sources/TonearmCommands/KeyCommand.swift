import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes

/// `tonearm key`: prints a request's canonical form and key, to debug why two requests do or do not match.
package struct KeyCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print a request's canonical form and key.",
        discussion: """
            Give the request with flags (--body-file - reads the body from standard input), or as a JSON \
            document on standard input when --url is absent:
              {"method": "POST", "url": "https://…", "headers": {"Content-Type": "application/json"}, "body": {…}}
            "headers" may also be a list of [name, value] pairs; a string "body" is sent as is, any other \
            JSON value as its JSON text.
            """
    )

    package init() {}

    @OptionGroup var request: RequestOptions
    @OptionGroup var matching: MatchingOptions
    @Flag(help: "Print JSON instead of text.") var json = false

    package func run() throws {
        let canonicalizer = RequestCanonicalizer(try matching.configuration())
        // The request (and its body) is dropped once canonicalised: only the canonical form is printed.
        let canonical = canonicalizer.canonicalize(try readRequest())
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
        try request.request() ?? RequestDocument.decode(try FileAccess.readStandardInput())
    }

    /// Writes the JSON as it goes (no document built), so a 200 MB body costs its canonical form and
    /// a small buffer rather than several encoded copies.
    private func printJSON(canonical: CanonicalRequest, key: RequestKey) throws {
        var output = StreamedJSONOutput()
        output.append("{\n  \"canonical\": ")
        try output.appendString(decoding: canonical.bytes)
        output.append(",\n  \"fields\": [")
        for (offset, field) in canonical.fields.enumerated() {
            output.append(offset == 0 ? "\n    [" : ",\n    [")
            try output.appendString(decoding: Array(field.label.utf8))
            output.append(", ")
            try output.appendString(decoding: field.value)
            output.append("]")
        }
        output.append("\n  ],\n  \"key\": ")
        try output.appendString(decoding: Array(key.hex.utf8))
        output.append(",\n  \"notes\": [")
        for (offset, note) in canonical.notes.enumerated() {
            output.append(offset == 0 ? "\n    " : ",\n    ")
            try output.appendString(decoding: Array(note.message.utf8))
        }
        output.append(canonical.notes.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        try output.flush()
    }
}
