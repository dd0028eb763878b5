import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes

/// `tonearm explain`: which track or rule answers a request, or a near-miss report of why none does.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show which recorded track or rule answers a request, or why none does.",
        discussion: """
            Give the request with --method/--url/--header/--body, or as a JSON document with --request
            ('-' for standard input, '@FILE' for a file, or inline JSON), in the shape `tonearm key` reads.
            Exits with status 1 on a miss.
            """
    )

    @Option(help: "The cassette, rule file or stub folder to match against.") var cassette: String
    @Option(help: "Cassette format (detected when absent).") var from: String?
    @Option(help: "The request as a JSON document: inline, '@FILE' or '-' for standard input.") var request: String?
    @Option(help: "The request method.") var method = "GET"
    @Option(help: "The request URL.") var url: String?
    @Option(name: .customLong("header"), help: "A header as 'Name: value' (repeatable).") var headers: [String] = []
    @Option(help: "The request body as text.") var body: String?
    @Option(help: "Replay strategy: repeat, fifo, uniquePlay, strictOrder (default: the cassette's, else repeat).") var strategy: String?
    @OptionGroup var matching: MatchingOptions

    func run() throws {
        var imported = try CassetteFile.load(URL(fileURLWithPath: cassette), format: try CLIFormat.parse(from, option: "--from"))
        if imported.configuration == .default { imported.configuration = try matching.configuration() }
        let engine = try imported.makeEngine(strategy: try strategy.map { try CLIFormat.strategy($0).strategy })
        switch engine.match(try readRequest()) {
        case .hit(let hit):
            print(describe(hit, tracks: imported.cassette.tracks))
        case .miss(let report):
            print(report.description)
            throw ExitCode(1)
        }
    }

    private func describe(_ hit: Hit, tracks: [Track]) -> String {
        let source: String = switch hit.source {
        case .track(let position): "track #\(position)" + (tracks[position].name.map { " \"\($0)\"" } ?? "")
        case .rule(let name, let position): "rule #\(position) \"\(name)\""
        case .custom(let name): name
        }
        let outcome: String = switch hit.track.outcome {
        case .response(let response): "status \(response.status), \(response.body.count) body bytes"
        case .transportError(let error): "\(error)"
        }
        return "Match: \(source) answers with \(outcome)"
    }

    private func readRequest() throws -> Request {
        if let request {
            let bytes: [UInt8]
            if request == "-" {
                bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
            } else if request.hasPrefix("@") {
                guard let data = FileManager.default.contents(atPath: String(request.dropFirst())) else {
                    throw ValidationError("--request \(request): cannot read the file")
                }
                bytes = Array(data)
            } else {
                bytes = Array(request.utf8)
            }
            return try RequestDocument.decode(bytes)
        }
        guard let url else { throw ValidationError("give the request with --url (and --method, --header, --body) or --request") }
        var fields: [HeaderField] = []
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else { throw ValidationError("--header '\(header)' must look like 'Name: value'") }
            fields.append(HeaderField(String(header[..<colon]), header[header.index(after: colon)...].trimmingCharacters(in: " ")))
        }
        return Request(method: method, url: url, headers: fields, body: Array((body ?? "").utf8))
    }
}
