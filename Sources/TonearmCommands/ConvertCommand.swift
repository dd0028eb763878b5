import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes

/// `tonearm convert IN OUT`: reads any supported recording format and writes native, HAR or a stub folder.
package struct ConvertCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a recording between formats (HAR, VCR, go-vcr, DVR, Vinyl, WireMock, WireMock.Net, Hoverfly, rules → native, HAR, stubs).",
        discussion: """
            Formats come from the file names and content: .har is HAR, .yml/.yaml is VCR (Ruby VCR, vcrpy, \
            OkReplay), go-vcr or rules by its content, a folder is a stub folder, and a .json file is recognised \
            by its content (native, VCR and Betamax, DVR, Vinyl, WireMock, WireMock.Net, Hoverfly, rules). Override with --from/--to. \
            Output formats: native (default for .json), har, stubs (a folder with one file per request).
            """
    )

    package init() {}

    @Argument(help: "The file (or stub folder) to read.") var input: String
    @Argument(help: "The file (or folder) to write.") var output: String
    @Option(help: "Input format: \(CassetteFormat.all.map(\.name).joined(separator: ", ")).") var from: String?
    @Option(help: "Output format: \(CassetteFormat.writable.map(\.name).joined(separator: ", ")).") var to: String?
    @Flag(help: "Redact Authorization, Cookie, Set-Cookie and Proxy-Authorization before writing.") var redact = false

    package func run() throws {
        let inputURL = URL(fileURLWithPath: input), outputURL = URL(fileURLWithPath: output)
        let imported = try CassetteFile.load(inputURL, format: try CLIFormat.parse(from, option: "--from"))
        let format = try CLIFormat.parse(to, option: "--to", among: CassetteFormat.writable) ?? CassetteFormat.output(for: outputURL)
        var cassette = imported.cassette
        if redact {
            for index in cassette.entries.indices {
                cassette.entries[index].track = Redaction.default.redact(cassette.entries[index].track)
            }
        }
        try format.save(cassette, to: outputURL)
        for warning in imported.warnings { CLIFormat.printError("warning: \(warning)") }
        if !imported.rules.isEmpty {
            CLIFormat.printError("warning: \(imported.rules.count) pattern rule(s) cannot be written as tracks and were not converted")
        }
        print("wrote \(cassette.entries.count) track(s) to \(output) (\(format.name))")
    }
}
