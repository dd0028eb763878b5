import Foundation
import Tonearm

/// The file formats Tonearm reads and writes, and choosing one from a file name and its content.
public enum CassetteFormat: String, Sendable, CaseIterable {
    /// Tonearm's native JSON cassette (read and write).
    case native
    /// HTTP Archive 1.2 (read and write).
    case har
    /// Ruby VCR / vcrpy YAML (read).
    case vcr
    /// venmo/DVR JSON (read).
    case dvr
    /// Velhotes/Vinyl JSON (read).
    case vinyl
    /// WireMock stub mappings (read).
    case wiremock
    /// Rule files in JSON, YAML or property-list syntax (read).
    case rules
    /// A folder of per-test stub folders (read and write).
    case stubs

    /// Whether Tonearm can write this format.
    public var isWritable: Bool { self == .native || self == .har || self == .stubs }

    /// The format of the file at `url`: by extension, then (for `.json`) by looking at the content.
    public static func detect(_ url: URL) throws(CassetteError) -> CassetteFormat {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue { return .stubs }
        switch url.pathExtension.lowercased() {
        case "har": return .har
        case "plist": return .rules
        case "yml", "yaml": return sniffYAML(try FileAccess.read(url))
        case "json": return sniffJSON(try FileAccess.read(url))
        default:
            throw CassetteError(file: url.path, expected: "a .json, .har, .yml/.yaml or .plist file or a stub folder (or give --from)", found: "extension \"\(url.pathExtension)\"")
        }
    }

    /// VCR when a top-level line starts the interactions list, rules otherwise.
    static func sniffYAML(_ bytes: [UInt8]) -> CassetteFormat {
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
        let isVCR = lines.contains { $0.hasPrefix("http_interactions:") || $0.hasPrefix("interactions:") }
        return isVCR ? .vcr : .rules
    }

    /// The format a JSON file looks like from its top-level members.
    static func sniffJSON(_ bytes: [UInt8]) -> CassetteFormat {
        guard let node = try? JSONDocumentParser.parse(DocumentSource(file: nil, bytes: bytes), options: .init(allowsTrailingCommas: true, opaqueKeys: ["json", "body", "response"])) else {
            return .native  // let the native reader report the syntax error
        }
        switch node.value {
        case .array(let elements):
            if case .object(let members)? = elements.first?.value, members.contains(where: { $0.key == "url" || $0.key == "path" }) { return .rules }
            return .vinyl
        case .object(let members):
            let keys = Set(members.map(\.key))
            if keys.contains("formatVersion") { return .native }
            if keys.contains("log") { return .har }
            if keys.contains("interactions") { return .dvr }
            if keys.contains("mappings") || keys.contains("request") { return .wiremock }
            if keys.contains("rules") { return .rules }
            return .native
        default:
            return .native
        }
    }
}

/// Loading and saving cassette files in any supported format.
public enum CassetteFile {
    /// Loads `url` as `format` (detected when `nil`).
    public static func load(_ url: URL, format: CassetteFormat? = nil) throws(CassetteError) -> CassetteImport {
        let format = if let format { format } else { try CassetteFormat.detect(url) }
        switch format {
        case .rules: return try RuleFileFormat.load(contentsOf: url)
        case .wiremock: return try WireMockFormat.load(contentsOf: url)
        case .stubs:
            let tests = try StubFolder.read(url)
            let entries = tests.flatMap { test in test.cassette.entries.map { entry in
                var named = entry
                if named.track.name == nil { named.track.name = test.test }
                return named
            } }
            return CassetteImport(cassette: Cassette(name: url.lastPathComponent, entries: entries))
        default: break
        }
        let bytes = try FileAccess.read(url)
        switch format {
        case .native: return CassetteImport(cassette: try NativeFormat.decode(bytes, file: url.path))
        case .har: return try HARFormat.decode(bytes, file: url.path)
        case .vcr: return try VCRFormat.decode(bytes, file: url.path)
        case .dvr: return try DVRFormat.decode(bytes, file: url.path)
        default: return try VinylFormat.decode(bytes, file: url.path)
        }
    }

    /// Saves `cassette` to `url` as `format` (native, HAR or a stub folder), atomically.
    public static func save(_ cassette: Cassette, to url: URL, format: CassetteFormat) throws(CassetteError) {
        switch format {
        case .native: try AtomicFile.write(NativeFormat.encode(cassette), to: url)
        case .har: try AtomicFile.write(HARFormat.encode(cassette), to: url)
        case .stubs: try StubFolder.writeTest(cassette, to: url)
        default: throw CassetteError(file: url.path, expected: "an output format Tonearm writes (native, har or stubs)", found: format.rawValue)
        }
    }

    /// The output format for `url` by extension: `.har` → HAR, no extension → stub folder, else native.
    public static func outputFormat(for url: URL) -> CassetteFormat {
        switch url.pathExtension.lowercased() {
        case "har": .har
        case "": .stubs
        default: .native
        }
    }
}
