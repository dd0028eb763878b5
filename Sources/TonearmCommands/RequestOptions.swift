import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes

/// The flags that describe one request, shared by `tonearm key` and `tonearm explain`.
struct RequestOptions: ParsableArguments {
    @Option(help: "The request method.") var method = "GET"
    @Option(help: "The request URL.") var url: String?
    @Option(name: .customLong("header"), help: "A header as 'Name: value' (repeatable).") var headers: [String] = []
    @Option(help: "The request body as text.") var body: String?
    @Option(
        name: .customLong("body-file"),
        help: "Read the request body, as bytes, from this file ('-' for standard input).")
    var bodyFile: String?

    /// The request the flags describe, or `nil` when `--url` is absent.
    func request() throws -> Request? {
        guard let url else { return nil }
        if body != nil, bodyFile != nil { throw ValidationError("give the body with --body or --body-file, not both") }
        var fields: [HeaderField] = []
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else {
                throw ValidationError("--header '\(header)' must look like 'Name: value'")
            }
            fields.append(HeaderField(String(header[..<colon]), header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let bytes = try bodyFile.map { try CommandInput.read($0, option: "--body-file") } ?? Array((body ?? "").utf8)
        return Request(method: method, url: url, headers: fields, body: bytes)
    }
}

/// Reads a command's input operand: a path, or `-` for standard input (the shell convention).
enum CommandInput {
    /// The bytes of `path`, or of standard input when `path` is `-`; errors name `option`.
    static func read(_ path: String, option: String) throws -> [UInt8] {
        do throws(CassetteError) {
            return path == "-" ? try FileAccess.readStandardInput() : try FileAccess.read(URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("\(option) \(path): \(error)")
        }
    }
}
