import Foundation
import Tonearm

/// A file format Tonearm reads (and perhaps writes), with how it is recognised.
///
/// Each format is a value carrying its own codec, so adding one means giving it a detector, a reader
/// and (when writable) a writer; nothing falls through to another format's reader. Formats will grow,
/// so this is a struct with static members rather than an enum: compare with `==` (by ``name``) and
/// list them with ``all``.
public struct CassetteFormat: Sendable, Hashable, CustomStringConvertible {
    /// The name used on the command line (`--from`, `--to`) and in messages, e.g. `har`.
    public let name: String
    let codec: CassetteCodec

    init(name: String, codec: CassetteCodec) {
        self.name = name
        self.codec = codec
    }

    /// Tonearm's native JSON cassette (read and write).
    public static let native = CassetteFormat(name: "native", codec: CassetteCodec(
        recognisedBy: "a JSON object with \"formatVersion\"",
        claims: { $0.jsonShape?.objectKeys?.contains("formatVersion") == true },
        read: { (url) throws(CassetteError) in CassetteImport(cassette: try NativeFormat.decode(FileAccess.read(url), file: url.path)) },
        write: { (cassette, url) throws(CassetteError) in try NativeFormat.write(cassette, to: url) },
        stream: { (url) throws(CassetteError) in try NativeFormat.stream(FileAccess.read(url), file: url.path) }))

    /// HTTP Archive 1.2 (read and write).
    public static let har = CassetteFormat(name: "har", codec: CassetteCodec(
        recognisedBy: "a .har file, or a JSON object with \"log\"",
        claims: { $0.fileExtension == "har" || $0.jsonShape?.objectKeys?.contains("log") == true },
        read: { (url) throws(CassetteError) in try HARFormat.decode(FileAccess.read(url), file: url.path) },
        write: { (cassette, url) throws(CassetteError) in try HARFormat.write(cassette, to: url) },
        stream: { (url) throws(CassetteError) in try HARFormat.stream(FileAccess.read(url), file: url.path) }))

    /// Ruby VCR / vcrpy YAML, or JSON written by their JSON serializers (read).
    public static let vcr = CassetteFormat(name: "vcr", codec: CassetteCodec(
        recognisedBy: "YAML starting \"http_interactions:\" or \"interactions:\", a VCR 1.x list, an empty YAML file, or a JSON object with \"http_interactions\" (or \"interactions\" and \"version\")",
        claims: { $0.isVCRYAML || $0.jsonShape?.objectKeys.map(FormatProbe.looksLikeVCRJSON) == true },
        read: { (url) throws(CassetteError) in try VCRFormat.decode(FileAccess.read(url), file: url.path) }))

    /// go-vcr YAML, versions 1 and 2 (read; ``GoVCRFormat``).
    public static let goVCR = CassetteFormat(name: "govcr", codec: CassetteCodec(
        recognisedBy: "YAML with \"interactions:\" whose requests have \"url:\" (not VCR's \"uri:\")",
        claims: { $0.isYAML && $0.yamlTopLevel.isGoVCR },
        read: { (url) throws(CassetteError) in try GoVCRFormat.decode(FileAccess.read(url), file: url.path) }))

    /// venmo/DVR JSON (read).
    public static let dvr = CassetteFormat(name: "dvr", codec: CassetteCodec(
        recognisedBy: "a JSON object with \"interactions\"",
        claims: { $0.jsonShape?.objectKeys?.contains("interactions") == true },
        read: { (url) throws(CassetteError) in try DVRFormat.decode(FileAccess.read(url), file: url.path) }))

    /// Velhotes/Vinyl JSON (read).
    public static let vinyl = CassetteFormat(name: "vinyl", codec: CassetteCodec(
        recognisedBy: "a JSON array whose first element names no \"url\" or \"path\"",
        claims: { if case .array(let first)? = $0.jsonShape { !FormatProbe.looksLikeRule(first) } else { false } },
        read: { (url) throws(CassetteError) in try VinylFormat.decode(FileAccess.read(url), file: url.path) }))

    /// WireMock stub mappings (read).
    public static let wiremock = CassetteFormat(name: "wiremock", codec: CassetteCodec(
        recognisedBy: "a JSON object with \"mappings\" or \"request\", or a folder holding mappings/",
        claims: { $0.isWireMockRoot || $0.jsonShape?.objectKeys.map { $0.contains("mappings") || $0.contains("request") } == true },
        read: { (url) throws(CassetteError) in try WireMockFormat.load(contentsOf: url) }))

    /// WireMock.Net JSON mappings: one mapping or an array of them (read; ``WireMockNetFormat``).
    public static let wiremockNet = CassetteFormat(name: "wiremocknet", codec: CassetteCodec(
        recognisedBy: "a JSON object with \"Request\" and \"Response\", or a JSON array whose first element has \"Request\"",
        claims: { WireMockNetFormat.claims($0.jsonShape) },
        read: { (url) throws(CassetteError) in try WireMockNetFormat.load(contentsOf: url) }))

    /// Hoverfly simulations, schemas v1 to v5 (read; ``HoverflyFormat``).
    public static let hoverfly = CassetteFormat(name: "hoverfly", codec: CassetteCodec(
        recognisedBy: "a JSON object with \"data\" and \"meta\"",
        claims: { $0.jsonShape?.objectKeys.map { $0.contains("data") && $0.contains("meta") } == true },
        read: { (url) throws(CassetteError) in try HoverflyFormat.decode(FileAccess.read(url), file: url.path) }))

    /// Stub bundles: a `<name>.bundle` folder with `stubsRules.plist` (or `stubRules.plist`, `stubsMapping.plist`), or that
    /// plist itself (read; ``StubBundleFormat``).
    public static let stubBundle = CassetteFormat(name: "bundle", codec: CassetteCodec(
        recognisedBy: "a .bundle folder with a rule-list plist, or that plist",
        claims: { $0.isStubBundle },
        read: { (url) throws(CassetteError) in try StubBundleFormat.load(contentsOf: url) }))

    /// Rule files in JSON, YAML or property-list syntax (read).
    public static let rules = CassetteFormat(name: "rules", codec: CassetteCodec(
        recognisedBy: "a JSON object with \"rules\", a JSON array of rules, a .plist, or YAML with \"rules:\" or a top-level list",
        claims: { probe in
            switch probe.jsonShape {
            case .object(let keys)?: keys.contains("rules")
            case .array(let first)?: FormatProbe.looksLikeRule(first)
            default: probe.fileExtension == "plist" || probe.isYAML && !probe.isVCRYAML && probe.yamlTopLevel.looksLikeRules
            }
        },
        read: { (url) throws(CassetteError) in try RuleFileFormat.load(contentsOf: url) }))

    /// A folder of per-test stub folders (read and write).
    public static let stubs = CassetteFormat(name: "stubs", codec: CassetteCodec(
        recognisedBy: "a folder",
        claims: { $0.isDirectory },
        read: { (url) throws(CassetteError) in try StubFolder.load(url) },
        write: { (cassette, url) throws(CassetteError) in try StubFolder.writeTest(cassette, to: url) }))

    /// Every format, in the order they are listed to users.
    public static let all: [CassetteFormat] = [
        .native, .har, .vcr, .goVCR, .dvr, .wiremockNet, .vinyl, .wiremock, .hoverfly, .stubBundle, .rules, .stubs,
    ]

    /// The formats Tonearm writes.
    public static var writable: [CassetteFormat] { all.filter(\.isWritable) }

    /// The format called `name` (any case), or `nil`.
    public init?(name: String) {
        guard let format = Self.all.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = format
    }

    /// Whether Tonearm can write this format.
    public var isWritable: Bool { codec.write != nil }

    /// ``name``.
    public var description: String { name }

    /// Formats are the same when their names are.
    public static func == (lhs: CassetteFormat, rhs: CassetteFormat) -> Bool { lhs.name == rhs.name }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Reads the file (or folder) at `url` in this format.
    public func load(_ url: URL) throws(CassetteError) -> CassetteImport {
        var imported = try codec.read(url)
        FreedMemory.release(afterLoading: FileAccess.size(of: url))
        for index in imported.cassette.entries.indices {
            let (entry, warning) = RecordedContentEncoding.consistent(imported.cassette.entries[index], file: url.path, path: "track \(index)")
            imported.cassette.entries[index] = entry
            if let warning { imported.warnings.append(warning) }
        }
        return imported
    }

    /// Reads the file at `url` in this format up to its tracks, to be read one at a time; formats that
    /// cannot stream are read whole first. Every entry passes ``RecordedContentEncoding``, as in ``load(_:)``.
    func stream(_ url: URL) throws(CassetteError) -> StreamedImport {
        let streamed = if let stream = codec.stream { try stream(url) } else { StreamedImport(whole: try codec.read(url)) }
        return StreamedImport(header: streamed.header) { (each) throws(CassetteError) in
            var index = 0
            var warnings: [ImportWarning] = []
            warnings += try streamed.readEntries { (entry) throws(CassetteError) in
                let (consistent, warning) = RecordedContentEncoding.consistent(entry, file: url.path, path: "track \(index)")
                index += 1
                if let warning { warnings.append(warning) }
                try each(consistent)
            }
            return warnings
        }
    }

    /// Writes `cassette` to `url` in this format, atomically; an error for formats Tonearm only reads,
    /// and for a cassette holding a value the format's reader would refuse (an error naming its path).
    public func save(_ cassette: Cassette, to url: URL) throws(CassetteError) {
        guard let write = codec.write else {
            let names = Self.writable.map(\.name).joined(separator: ", ")
            throw CassetteError(file: url.path, expected: "an output format Tonearm writes (\(names))", found: name)
        }
        do {
            try write(cassette, url)
        } catch {
            throw error.inFile(url.path)
        }
    }

    /// The format of the file at `url`: a folder holding `mappings/` is a WireMock root, a `.bundle` folder
    /// with a rule-list plist (and such a plist) is a stub bundle, another folder is a stub folder, `.har` is HAR, `.plist` rules, YAML is
    /// VCR or rules by its content, and JSON is recognised by its content. A `.json` file that is not
    /// JSON is read as native, so that the native reader reports where its syntax breaks; JSON that no
    /// format claims is an error listing each format tried and what it looks for.
    public static func detect(_ url: URL) throws(CassetteError) -> CassetteFormat {
        let probe = try FormatProbe(url)
        if let format = all.first(where: { $0.codec.claims(probe) }) { return format }
        if case .other? = probe.jsonShape { return .native }
        if let found = probe.jsonShape?.description ?? (probe.isYAML ? probe.yamlTopLevel.description : nil) {
            let tried = all.map { "\($0.name) (\($0.codec.recognisedBy))" }.joined(separator: "; ")
            throw CassetteError(
                file: url.path, expected: "a file of a format Tonearm reads (or give --from); tried \(tried)", found: found)
        }
        throw CassetteError(
            file: url.path, expected: "a .json, .har, .yml/.yaml or .plist file or a stub folder (or give --from)",
            found: "extension \"\(url.pathExtension)\"")
    }

    /// The output format for `url` by extension: `.har` → HAR, no extension → stub folder, else native.
    public static func output(for url: URL) -> CassetteFormat {
        switch url.pathExtension.lowercased() {
        case "har": .har
        case "": .stubs
        default: .native
        }
    }
}

/// How one format is recognised, read and written.
struct CassetteCodec: Sendable {
    /// What ``claims`` looks for, for the error listing the formats a file fitted none of.
    let recognisedBy: String
    /// Whether a file looks like this format. Where claims overlap (a JSON object with both
    /// `formatVersion` and `log`), the format listed first in ``CassetteFormat/all`` wins.
    let claims: @Sendable (FormatProbe) -> Bool
    /// Reads the file or folder.
    let read: @Sendable (URL) throws(CassetteError) -> CassetteImport
    /// Writes the file or folder atomically; `nil` for formats Tonearm only reads.
    let write: (@Sendable (Cassette, URL) throws(CassetteError) -> Void)?
    /// Reads the file up to its tracks, leaving them to be read one at a time; `nil` for formats read
    /// whole.
    let stream: (@Sendable (URL) throws(CassetteError) -> StreamedImport)?

    init(
        recognisedBy: String, claims: @escaping @Sendable (FormatProbe) -> Bool, read: @escaping @Sendable (URL) throws(CassetteError) -> CassetteImport,
        write: (@Sendable (Cassette, URL) throws(CassetteError) -> Void)? = nil,
        stream: (@Sendable (URL) throws(CassetteError) -> StreamedImport)? = nil
    ) {
        self.recognisedBy = recognisedBy
        self.claims = claims
        self.read = read
        self.write = write
        self.stream = stream
    }
}

/// What format detection looks at, worked out once per file: where it is, its extension and, for JSON
/// and YAML files, the shape of the top level.
struct FormatProbe {
    /// The top level of a JSON file.
    enum JSONShape {
        /// An object with these member names.
        case object(Set<String>)
        /// An array; the member names of its first element when that is an object.
        case array(firstElementKeys: Set<String>?)
        /// Anything else, including text that is not JSON.
        case other

        /// What the top level holds, for the error saying no format fits.
        var description: String {
            switch self {
            case .object(let keys) where keys.isEmpty: "an empty JSON object"
            case .object(let keys): "a JSON object with members " + keys.sorted().map(\.debugDescription).joined(separator: ", ")
            case .array(let keys?): "a JSON array whose first element has members " + keys.sorted().map(\.debugDescription).joined(separator: ", ")
            case .array(nil): "a JSON array whose first element is not an object"
            case .other: "text that is not a JSON object or array"
            }
        }

        var objectKeys: Set<String>? {
            if case .object(let keys) = self { return keys }
            return nil
        }
    }

    let isDirectory: Bool
    /// Lowercased, without the dot.
    let fileExtension: String
    /// Set for `.json` files only.
    let jsonShape: JSONShape?
    let isYAML: Bool
    /// A YAML file whose top level starts an interactions list (Ruby VCR or vcrpy), a VCR 1.x file, or
    /// an empty one.
    let isVCRYAML: Bool
    /// The top level of a YAML file, read from its unindented lines (empty for other files).
    let yamlTopLevel: YAMLTopLevel
    /// A `.bundle` folder holding a stub bundle's rule list, or such a `.plist` list itself.
    let isStubBundle: Bool
    /// A folder holding a `mappings` folder: WireMock's root layout.
    let isWireMockRoot: Bool

    init(_ url: URL) throws(CassetteError) {
        var isDirectory: ObjCBool = false
        self.isDirectory = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        fileExtension = self.isDirectory ? "" : url.pathExtension.lowercased()
        isYAML = fileExtension == "yml" || fileExtension == "yaml"
        jsonShape = fileExtension == "json" ? Self.shape(try FileAccess.read(url)) : nil
        yamlTopLevel = isYAML ? YAMLTopLevel(try FileAccess.read(url)) : YAMLTopLevel(lines: [])
        isVCRYAML = isYAML && yamlTopLevel.isVCR
        isWireMockRoot = self.isDirectory && WireMockFormat.isRoot(url)
        if self.isDirectory {
            isStubBundle = url.pathExtension.lowercased() == "bundle" && StubBundleFormat.ruleFile(inBundle: url) != nil
        } else if fileExtension == "plist" {
            isStubBundle = StubBundleFormat.isRuleList(try FileAccess.read(url))
        } else {
            isStubBundle = false
        }
    }

    /// Whether the first element of a top-level array is a rule (it names a `url` or a `path`).
    static func looksLikeRule(_ keys: Set<String>?) -> Bool {
        keys.map { $0.contains("url") || $0.contains("path") } ?? false
    }

    /// Whether the top-level members are a VCR cassette's as its JSON serializers write them: Ruby VCR's
    /// `http_interactions`, or vcrpy's `interactions` with its `version` (DVR's has a `name` and no
    /// `version`).
    static func looksLikeVCRJSON(_ keys: Set<String>) -> Bool {
        keys.contains("http_interactions") || keys.contains("interactions") && keys.contains("version") && !keys.contains("name")
    }

    /// The top level's shape, read token by token (every value skipped, not built, so probing a large
    /// cassette allocates nothing per track); `.other` for text that is not JSON.
    static func shape(_ bytes: [UInt8]) -> JSONShape {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer, options: JSONReader.Options(allowsTrailingCommas: true, skipsByteOrderMark: true))
            do throws(JSONSyntaxError) {
                let shape: JSONShape
                switch try reader.value() {
                case .objectStart:
                    shape = .object(try memberNames(&reader))
                case .arrayStart:
                    var firstElementKeys: Set<String>?
                    if try reader.nextElement() {
                        switch try reader.value() {
                        case .objectStart: firstElementKeys = try memberNames(&reader)
                        case .arrayStart: while try reader.nextElement() { _ = try reader.skipValue() }
                        default: break
                        }
                        while try reader.nextElement() { _ = try reader.skipValue() }
                    }
                    shape = .array(firstElementKeys: firstElementKeys)
                default:
                    shape = .other
                }
                try reader.end()
                return shape
            } catch {
                return .other
            }
        }
    }

    /// The member names of the object whose `{` the reader just read, skipping their values.
    private static func memberNames(_ reader: inout JSONReader) throws(JSONSyntaxError) -> Set<String> {
        var names: Set<String> = []
        while let name = try reader.nextKey() {
            names.insert(name)
            _ = try reader.skipValue()
        }
        return names
    }
}

/// A YAML file's top level as its lines show it, without parsing the document: enough to tell a VCR
/// cassette from a rule file, and to say what a file that is neither holds.
struct YAMLTopLevel {
    /// The lines holding content (not blank, comments or document markers), untrimmed.
    let lines: [Substring]

    init(lines: [Substring]) {
        self.lines = lines
    }

    init(_ bytes: [UInt8]) {
        lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix("#") && trimmed != "---" && trimmed != "..."
        }
    }

    /// The member names of unindented `name:` lines, in order.
    var keys: [String] {
        lines.compactMap { line in
            guard let first = line.first, first != " ", first != "-", first != "\t", let colon = line.firstIndex(of: ":") else { return nil }
            return String(line[..<colon])
        }
    }

    /// A top level that starts an interactions list, a VCR 1.x list of
    /// `!ruby/struct:VCR::HTTPInteraction` (or of untagged `request:`/`response:` items, symbol keys
    /// or not), or no document at all (VCR's empty cassette).
    var isVCR: Bool {
        lines.isEmpty || keys.contains("http_interactions") || keys.contains("interactions") && !isGoVCR
            || lines.contains { $0.contains("!ruby/struct:VCR::HTTPInteraction") || $0.contains("!ruby/struct:VCR::RecordedResponse") }
            || lines.first.map { $0.hasPrefix("- request:") || $0.hasPrefix("- :request:") } == true
    }

    /// go-vcr's `interactions:` list: its requests name the `url:` where VCR's and OkReplay's name the
    /// `uri:`. Without this look inside, go-vcr cassettes were read as vcrpy's and refused for the
    /// missing `uri`.
    var isGoVCR: Bool {
        guard keys.contains("interactions") else { return false }
        var namesURL = false
        for line in lines {
            var member = line.drop { $0 == " " || $0 == "\t" }
            if member.hasPrefix("- ") { member = member.dropFirst(2).drop { $0 == " " } }
            if member.hasPrefix("uri:") { return false }
            if member.hasPrefix("url:") { namesURL = true }
        }
        return namesURL
    }

    /// A `rules:` member or a top-level list (its first line starts an item), as rule files have.
    var looksLikeRules: Bool {
        keys.contains("rules") || lines.first?.hasPrefix("-") == true
    }

    /// What the top level holds, for the error saying no format fits.
    var description: String {
        let names = keys
        return names.isEmpty ? "YAML with no top-level members" : "YAML with top-level members " + names.map(\.debugDescription).joined(separator: ", ")
    }
}

/// Loading and saving cassette files in any supported format.
public enum CassetteFile {
    /// Loads `url` as `format` (detected when `nil`).
    public static func load(_ url: URL, format: CassetteFormat? = nil) throws(CassetteError) -> CassetteImport {
        let format = if let format { format } else { try CassetteFormat.detect(url) }
        return try format.load(url)
    }

    /// Loads `url` as `format` (detected when `nil`) straight into a replay engine, each track indexed
    /// as it is read, so no `Cassette` of the tracks is held on the way: what a session replaying a
    /// large cassette wants. The engine answers by `strategy` (else the file's hint, else
    /// `Strategy/repeat`) under `configuration` (else the one the format implies), and has no rules
    /// yet; the import returned has everything but the entries, its rules included, for the caller to
    /// add.
    package static func loadEngine(
        _ url: URL, format: CassetteFormat? = nil, strategy: Strategy? = nil,
        configuration: MatchingConfiguration? = nil
    ) throws(CassetteError) -> (engine: ReplayEngine, imported: CassetteImport) {
        let format = if let format { format } else { try CassetteFormat.detect(url) }
        let loaded = try indexTracks(of: format.stream(url), strategy: strategy, configuration: configuration)
        // The file's bytes went with the streamed import: hand the freed parse memory back.
        FreedMemory.release(afterLoading: FileAccess.size(of: url))
        return loaded
    }

    /// Indexes each of `streamed`'s tracks as it is read. Nothing the engine keeps refers to the file's
    /// bytes (LoadedFileBytesTests), so they are freed with `streamed`.
    static func indexTracks(
        of streamed: StreamedImport, strategy: Strategy?, configuration: MatchingConfiguration?
    ) throws(CassetteError) -> (engine: ReplayEngine, imported: CassetteImport) {
        var imported = streamed.header
        var warnings: [ImportWarning] = []
        let engine = try ReplayEngine(
            strategy: strategy ?? imported.cassette.strategy?.strategy ?? .repeat,
            configuration: configuration ?? imported.configuration
        ) { (add) throws(CassetteError) in
            warnings = try streamed.readEntries { add($0.track) }
        }
        imported.warnings += warnings
        return (engine, imported)
    }

    /// Saves `cassette` to `url` as `format` (native, HAR or a stub folder), atomically.
    public static func save(_ cassette: Cassette, to url: URL, format: CassetteFormat) throws(CassetteError) {
        try format.save(cassette, to: url)
    }

    /// The output format for `url` by extension: `.har` → HAR, no extension → stub folder, else native.
    public static func outputFormat(for url: URL) -> CassetteFormat {
        CassetteFormat.output(for: url)
    }
}
