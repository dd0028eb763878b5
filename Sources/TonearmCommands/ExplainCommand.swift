import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes

/// `tonearm explain`: which track or rule answers a request, or a near-miss report of why none does.
package struct ExplainCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show which recorded track or rule answers a request, or why none does.",
        discussion: """
            Give the request with --method/--url/--header and --body or --body-file (bytes from a file, '-' \
            for standard input: binary bodies too), or as a JSON document with --request ('-' for standard \
            input, '@FILE' for a file, or inline JSON), in the shape `tonearm key` reads, or as a curl \
            command line or raw HTTP request with --curl (what the inspector's Explain box reads: curl's \
            own default headers are left out).

            Exits with status 1 on a miss.
            """
    )

    package init() {}

    @Option(help: "The cassette, rule file or stub folder to match against.") var cassette: String
    @Option(help: "Cassette format (detected when absent).") var from: String?
    @Option(help: "The request as a JSON document: inline, '@FILE' or '-' for standard input.") var request: String?
    @Option(help: "The request as a curl command line (e.g. from \"Copy as cURL\") or a raw HTTP request.") var curl: String?
    @OptionGroup var requestOptions: RequestOptions
    @Option(help: "Replay strategy: repeat, fifo, uniquePlay, strictOrder (default: the cassette's, else repeat).") var strategy: String?
    @OptionGroup var matching: MatchingOptions

    package func run() throws {
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
        if let curl {
            if request != nil || requestOptions.url != nil {
                throw ValidationError("give the request with one of --curl, --request or --url")
            }
            do {
                return try RequestText.parse(curl)
            } catch {
                throw ValidationError("--curl: \(error)")
            }
        }
        if let request {
            if requestOptions.url != nil { throw ValidationError("give the request with --request or with --url, not both") }
            let bytes: [UInt8] = if request == "-" || request.hasPrefix("@") {
                try CommandInput.read(request == "-" ? "-" : String(request.dropFirst()), option: "--request")
            } else {
                Array(request.utf8)
            }
            return try RequestDocument.decode(bytes)
        }
        guard let built = try requestOptions.request() else {
            throw ValidationError("give the request with --url (and --method, --header, --body or --body-file) or --request")
        }
        return built
    }
}
