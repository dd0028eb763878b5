import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes

/// `tonearm diff OLD NEW`: what a re-recording changed, by request key, volatile parts left out.
package struct DiffCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two recordings by request key: tracks added, removed and changed, volatile parts left out.",
        usage: """
            tonearm diff OLD NEW [<options>]
            tonearm diff --git REV1 REV2 PATH [<options>]
            tonearm diff --textconv FILE [<options>]
            tonearm diff --git-external PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE [<options>]
            """,
        discussion: """
            OLD and NEW may be in any format Tonearm reads, and in different ones. Tracks are paired by request \
            key (the new file's matching configuration, else the old one's, unless matching options are given): \
            the i-th track with a key in OLD with the i-th in NEW. For a changed track it shows the status, the \
            headers, the body (by JSON pointer when both bodies are JSON), the transport error and the delay. \
            Flags: a key recorded more often in NEW than in OLD (a retried request left behind), or several times \
            under the repeat strategy; credentials the redaction names still in NEW.

            Left out as volatile: recording times, track names, the headers \(CassetteDiffOptions.defaultIgnoredHeaders.sorted().joined(separator: ", ")) \
            and those given with --ignore-header (out of the key too, when it matches on them); the JSON fields \
            of the configuration (--ignore-json, or the cassette's) and of --ignore-field, out of request keys \
            and response bodies alike. --ignore-query affects keys only.

            --git reads PATH at two revisions with `git show`. --textconv prints one file as stable text for \
            git's diff.<driver>.textconv; --git-external takes the seven arguments git gives a \
            diff.<driver>.command (and then exits 0 on differences, which git would take for a crash).

            Exit status, as diff(1): 0 no differences, 1 differences (or a flag NEW brought), 2 trouble (a file \
            that does not load, a revision git does not know). Unknown options exit 64, as in every tonearm command.
            """
    )

    package init() {}

    @Argument(help: "OLD NEW; with --git, REV1 REV2 PATH; with --textconv, FILE; with --git-external, git's seven arguments.")
    var arguments: [String] = []
    @Option(help: "Input format of both files (detected when absent).") var from: String?
    @Option(help: "Output: text, markdown or json.") var format = "text"
    @Flag(name: .customLong("git"), help: "Compare PATH at revisions REV1 and REV2 (read with git show).") var gitRevisions = false
    @Flag(help: "Print FILE as stable text for git's diff.<driver>.textconv.") var textconv = false
    @Flag(name: .customLong("git-external"), help: "Take the arguments git passes a diff.<driver>.command.") var gitExternal = false
    @Option(name: .customLong("ignore-header"), help: "A response header to leave out (and out of the key), repeatable.")
    var ignoredHeaders: [String] = []
    @Option(name: .customLong("keep-header"), help: "A header volatile by default to compare anyway, repeatable.")
    var keptHeaders: [String] = []
    @Option(
        name: .customLong("ignore-field"),
        help: "A JSON field to leave out of request keys and response bodies: a pointer (/meta/id) or a path ($.meta.id, $.items[*].id), repeatable.")
    var ignoredFields: [String] = []
    @Option(name: .customLong("redact-header"), help: "Another header that must be redacted (repeatable).") var redactHeaders: [String] = []
    @Option(help: "The strategy NEW is replayed with, for the repeated-key flag (default: NEW's hint, else repeat).") var strategy: String?
    @OptionGroup var matching: MatchingOptions

    /// The trouble exit status, as diff(1)'s.
    static let troubleStatus: Int32 = 2

    package func run() async throws {
        do {
            try await compare()
        } catch let exit as ExitCode {
            throw exit
        } catch let error as ValidationError {
            CLIFormat.printError("error: \(error.message)")
            throw ExitCode(Self.troubleStatus)
        } catch {
            CLIFormat.printError("error: \(error)")
            throw ExitCode(Self.troubleStatus)
        }
    }

    private func compare() async throws {
        let modes = [gitRevisions, textconv, gitExternal].filter { $0 }.count
        guard modes <= 1 else { throw ValidationError("--git, --textconv and --git-external exclude each other") }
        let inputFormat = try CLIFormat.parse(from, option: "--from")
        var options = try diffOptions()
        if textconv {
            let file = try expectArguments(["FILE"])[0]
            let imported = try CassetteFile.load(URL(fileURLWithPath: file), format: inputFormat)
            StandardStream.output.write(Array(CassetteListing.text(of: imported, options: options).utf8))
            return
        }
        let report = try reportFormat()
        let revisions = try GitRevisionFiles()
        defer { revisions.removeAll() }
        let sides: (old: Side, new: Side)
        if gitRevisions {
            let given = try expectArguments(["REV1", "REV2", "PATH"])
            let readsSiblings = { (copy: URL) in Self.mayNameOtherFiles(copy, format: inputFormat) }
            sides = (
                Side(url: try revisions.materialize(given[2], at: given[0], label: "old", readsSiblings: readsSiblings), label: "\(given[0]):\(given[2])"),
                Side(url: try revisions.materialize(given[2], at: given[1], label: "new", readsSiblings: readsSiblings), label: "\(given[1]):\(given[2])"))
        } else if gitExternal {
            let given = try expectArguments(["PATH", "OLD-FILE", "OLD-HEX", "OLD-MODE", "NEW-FILE", "NEW-HEX", "NEW-MODE"])
            sides = (
                try Side(gitFile: given[1], path: given[0], label: "a/\(given[0])", copies: revisions.folder.appendingPathComponent("old")),
                try Side(gitFile: given[4], path: given[0], label: "b/\(given[0])", copies: revisions.folder.appendingPathComponent("new")))
        } else {
            let given = try expectArguments(["OLD", "NEW"])
            sides = (Side(url: URL(fileURLWithPath: given[0]), label: given[0]), Side(url: URL(fileURLWithPath: given[1]), label: given[1]))
        }
        // Loading is about half of a diff's time (two 10,000-track files: 0.3 s each of 0.9 s), so the
        // two files load at once, on two cores where there are two.
        async let loadingOld = sides.old.load(format: inputFormat)
        let new = try sides.new.load(format: inputFormat)
        let old = try await loadingOld
        for warning in old.warnings + new.warnings { CLIFormat.printError("warning: \(warning)") }
        options.redaction.additionalJSONMediaTypes = new.configuration.additionalJSONMediaTypes
        let diff = CassetteDiff(old: old, new: new, options: options)
        let output: [UInt8] = switch report {
        case .text: Array(diff.textReport(old: sides.old.label, new: sides.new.label, colors: Self.outputIsColourTerminal).utf8)
        case .markdown: Array(diff.markdownReport(old: sides.old.label, new: sides.new.label).utf8)
        case .json: diff.jsonReport(old: sides.old.label, new: sides.new.label)
        }
        StandardStream.output.write(output)
        // git takes any other status from a diff.<driver>.command for a crash and stops.
        if !diff.isEmpty && !gitExternal { throw ExitCode(1) }
    }

    /// Whether a file in `format` (detected when `nil`) may name body files beside it: every format but
    /// the recorders', which hold their bodies inline.
    static func mayNameOtherFiles(_ file: URL, format: CassetteFormat?) -> Bool {
        guard let format = format ?? (try? CassetteFormat.detect(file)) else { return false }
        return ![CassetteFormat.native, .har, .vcr, .goVCR, .dvr, .vinyl].contains(format)
    }

    /// The options the flags ask for.
    private func diffOptions() throws -> CassetteDiffOptions {
        let configuration = try matching.configuration()
        var pointers: [JSONPointer] = []
        for field in ignoredFields { pointers.append(try Self.pointer(field)) }
        let ignored = CassetteDiffOptions.defaultIgnoredHeaders.union(ignoredHeaders.map { $0.lowercased() })
            .subtracting(keptHeaders.map { $0.lowercased() })
        return CassetteDiffOptions(
            configuration: configuration == .default ? nil : configuration, ignoredHeaders: ignored, ignoredJSONFields: pointers,
            redaction: Redaction(headers: Redaction.defaultHeaders.union(redactHeaders)),
            strategy: try strategy.map(CLIFormat.strategy))
    }

    /// `field` as a JSON pointer: given as one, or as a JSONPath a pointer can say.
    static func pointer(_ field: String) throws -> JSONPointer {
        if field.hasPrefix("$") {
            let path: JSONPath
            do { path = try JSONPath(field) } catch { throw ValidationError("--ignore-field \(field): \(error)") }
            guard let pointer = path.pointer else {
                throw ValidationError("--ignore-field \(field): only names, indices and [*] can be ignored (no .., unions, slices or filters)")
            }
            return pointer
        }
        do { return try JSONPointer(field) } catch { throw ValidationError("--ignore-field \(field): \(error)") }
    }

    private func reportFormat() throws -> DiffReportFormat {
        guard let report = DiffReportFormat(rawValue: format.lowercased()) else {
            throw ValidationError("--format \(format): expected one of \(DiffReportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return report
    }

    private func expectArguments(_ names: [String]) throws -> [String] {
        guard arguments.count == names.count else {
            throw ValidationError("expected \(names.joined(separator: " ")), got \(arguments.count) argument(s)")
        }
        return arguments
    }

    /// Colours only for a terminal that shows them, and never when NO_COLOR is set (no-color.org).
    private static var outputIsColourTerminal: Bool {
        let environment = ProcessInfo.processInfo.environment
        return isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }
}

/// What `tonearm diff --format` writes.
enum DiffReportFormat: String, CaseIterable {
    case text, markdown, json
}

/// One side of a diff: the file to load and the name to show for it.
private struct Side {
    let url: URL
    /// What the side is called in the report and in load errors: the path given, `REV:PATH`, or git's
    /// `a/PATH` and `b/PATH`, never the temporary copy's path.
    let label: String

    init(url: URL, label: String) {
        self.url = url
        self.label = label
    }

    /// A file git hands a diff driver: `/dev/null` for a side where the file does not exist, and a
    /// temporary file whose name may not end like `path`, in which case it is copied under `path`'s name
    /// so that format detection sees the extension.
    init(gitFile: String, path: String, label: String, copies: URL) throws {
        self.label = label
        let file = URL(fileURLWithPath: gitFile)
        let named = URL(fileURLWithPath: path)
        guard gitFile != "/dev/null", file.pathExtension != named.pathExtension else {
            url = file
            return
        }
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        url = copies.appendingPathComponent(named.lastPathComponent)
        try FileManager.default.copyItem(at: file, to: url)
    }

    /// The import, empty for `/dev/null`; a load error names the file by the label (and the file inside
    /// a folder by its path below the label).
    func load(format: CassetteFormat?) throws(CassetteError) -> CassetteImport {
        if url.path == "/dev/null" { return CassetteImport(cassette: Cassette()) }
        do {
            return try CassetteFile.load(url, format: format)
        } catch {
            guard let file = error.file, file == url.path || file.hasPrefix(url.path + "/") else { throw error }
            var named = error
            named.file = label + file.dropFirst(url.path.count)
            throw named
        }
    }
}
