import Foundation
import Tonearm
import TonearmServer

/// The body of `POST /__admin/recordings/start` and `/snapshot` (WireMock's RecordSpec): where to
/// record from, which exchanges become mappings and how those mappings are written. Members are
/// checked as WireMock's reader checks them: an unknown member or a value of the wrong type is a 422
/// pointing at it.
struct WireMockRecordSpec: Sendable {
    /// A request header copied into the generated request patterns as an `equalTo` matcher.
    struct CapturedHeader: Sendable {
        let name: String
        let caseInsensitive: Bool
    }

    /// `requestBodyPattern`: how a recorded request body becomes a body pattern.
    struct BodyPatternOptions: Sendable {
        /// `matcher`: chosen by the request's `Content-Type` (`auto`), or always the one named.
        enum Matcher: String, Sendable {
            case auto, equalToJson, equalToXml, equalTo
        }

        var matcher = Matcher.auto
        var ignoreArrayOrder: Bool?
        var ignoreExtraElements: Bool?
        var caseInsensitive: Bool?
    }

    /// Which serve events are recorded (`filters`): a request pattern, serve-event `ids`, and whether
    /// events no proxy mapping answered count too.
    struct Filters: Sendable {
        var pattern: WireMockRequestPattern?
        var ids: Set<String>?
        var allowNonProxied = false
    }

    /// What `stop` and `snapshot` answer: the mappings (`FULL`) or their ids (`IDS`).
    enum OutputFormat: Sendable {
        case full, ids
    }

    /// `targetBaseUrl`, required by `start`, refused by nothing (WireMock ignores it in a snapshot).
    var targetBaseURL: String?
    var filters = Filters()
    var captureHeaders: [CapturedHeader] = []
    var requestBodyPattern = BodyPatternOptions()
    /// Bodies longer than these (in bytes) go to `__files` and are named by `bodyFileName`.
    var textSizeThreshold: Int?
    var binarySizeThreshold: Int?
    var persist = true
    var repeatsAsScenarios = true
    var outputFormat = OutputFormat.full

    private static let members: Set<String> = [
        "targetBaseUrl", "filters", "captureHeaders", "requestBodyPattern", "extractBodyCriteria", "persist",
        "repeatsAsScenarios", "outputFormat", "transformers", "transformerParameters",
    ]

    /// Reads a spec; an empty body is the default spec, as WireMock takes it for a snapshot.
    init(_ body: [UInt8], bodyFiles: URL?) throws(WireMockError) {
        guard body.contains(where: { !Self.isWhitespace($0) }) else { return }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .invalid(nil, "Error parsing JSON", detail: "the record spec: \(error)")
        }
        guard case .object(let members) = json else { throw .invalid("", "Error parsing JSON", detail: "expected a record spec object") }
        for member in members where !Self.members.contains(member.key) {
            throw .invalid("/\(member.key)", "Error parsing JSON", detail: "Unrecognized field \(member.key.debugDescription) in a record spec")
        }
        if let target = json[member: "targetBaseUrl"], target != .null {
            guard let text = target.stringValue else { throw Self.wrongType("targetBaseUrl", "a string") }
            targetBaseURL = text
        }
        persist = try Self.bool(json, "persist") ?? true
        repeatsAsScenarios = try Self.bool(json, "repeatsAsScenarios") ?? true
        switch json[member: "outputFormat"] {
        case nil, .null: break
        case .string(let text) where text.uppercased() == "FULL": outputFormat = .full
        case .string(let text) where text.uppercased() == "IDS": outputFormat = .ids
        default: throw .invalid("/outputFormat", "Error parsing JSON", detail: "Invalid output format")
        }
        if let transformers = json[member: "transformers"], transformers != .null, transformers != .array([]) {
            throw .invalid("/transformers", "Unsupported record spec feature", detail: "recording transformers were refused (Tonearm has none)")
        }
        try readFilters(json[member: "filters"], bodyFiles: bodyFiles)
        try readCaptureHeaders(json[member: "captureHeaders"])
        try readBodyPattern(json[member: "requestBodyPattern"])
        try readExtractCriteria(json[member: "extractBodyCriteria"])
    }

    private mutating func readFilters(_ json: JSONValue?, bodyFiles: URL?) throws(WireMockError) {
        guard let json, json != .null else { return }
        guard case .object(let members) = json else { throw Self.wrongType("filters", "an object") }
        filters.allowNonProxied = try Self.bool(json, "allowNonProxied", at: "filters/") ?? false
        if let ids = json[member: "ids"], ids != .null {
            guard case .array(let list) = ids else { throw Self.wrongType("filters/ids", "an array of serve-event ids") }
            var set: Set<String> = []
            for (index, element) in list.enumerated() {
                guard let text = element.stringValue, let uuid = UUID(uuidString: text) else {
                    throw Self.wrongType("filters/ids/\(index)", "a UUID")
                }
                set.insert(uuid.uuidString.lowercased())
            }
            filters.ids = set
        }
        let pattern = JSONValue.object(members.filter { $0.key != "ids" && $0.key != "allowNonProxied" })
        guard pattern != .object([]) else { return }
        do throws(WireMockError) {
            filters.pattern = try WireMockRequestPattern(pattern.bytes, source: "the record spec's filters", bodyFiles: bodyFiles)
        } catch {
            var located = error
            located.pointer = "/filters" + (error.pointer ?? "")
            throw located
        }
    }

    private mutating func readCaptureHeaders(_ json: JSONValue?) throws(WireMockError) {
        guard let json, json != .null else { return }
        guard case .object(let members) = json else { throw Self.wrongType("captureHeaders", "an object of header names") }
        for member in members {
            let options = member.value == .null ? JSONValue.object([]) : member.value
            guard case .object = options else { throw Self.wrongType("captureHeaders/\(member.key)", "an object") }
            let caseInsensitive = try Self.bool(options, "caseInsensitive", at: "captureHeaders/\(member.key)/") ?? false
            captureHeaders.append(CapturedHeader(name: member.key, caseInsensitive: caseInsensitive))
        }
    }

    private mutating func readBodyPattern(_ json: JSONValue?) throws(WireMockError) {
        guard let json, json != .null else { return }
        guard case .object = json else { throw Self.wrongType("requestBodyPattern", "an object") }
        switch json[member: "matcher"] {
        case nil, .null: break
        case .string(let name) where BodyPatternOptions.Matcher(rawValue: name) != nil:
            requestBodyPattern.matcher = BodyPatternOptions.Matcher(rawValue: name) ?? .auto
        default:
            throw .invalid("/requestBodyPattern/matcher", "Error parsing JSON", detail: "matcher must be \"auto\", \"equalToJson\", \"equalToXml\" or \"equalTo\"")
        }
        requestBodyPattern.ignoreArrayOrder = try Self.bool(json, "ignoreArrayOrder", at: "requestBodyPattern/")
        requestBodyPattern.ignoreExtraElements = try Self.bool(json, "ignoreExtraElements", at: "requestBodyPattern/")
        requestBodyPattern.caseInsensitive = try Self.bool(json, "caseInsensitive", at: "requestBodyPattern/")
    }

    private mutating func readExtractCriteria(_ json: JSONValue?) throws(WireMockError) {
        guard let json, json != .null else { return }
        guard case .object = json else { throw Self.wrongType("extractBodyCriteria", "an object") }
        textSizeThreshold = try Self.size(json[member: "textSizeThreshold"], at: "extractBodyCriteria/textSizeThreshold")
        binarySizeThreshold = try Self.size(json[member: "binarySizeThreshold"], at: "extractBodyCriteria/binarySizeThreshold")
    }

    /// A size as WireMock writes one: a number of bytes, or text such as `"10"`, `"56 kb"`, `"1.5 Mb"`
    /// (units of 1024, any case).
    private static func size(_ json: JSONValue?, at pointer: String) throws(WireMockError) -> Int? {
        switch json {
        case nil, .null?: return nil
        case .number?:
            guard let value = json?.intValue, value >= 0 else { throw wrongType(pointer, "a size in bytes") }
            return value
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            let digits = trimmed.prefix { $0.isNumber || $0 == "." }
            let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
            let scale: Double? = switch unit {
            case "", "b": 1
            case "kb": 1024
            case "mb": 1024 * 1024
            case "gb": 1024 * 1024 * 1024
            default: nil
            }
            guard let number = Double(digits), let scale, (number * scale).isFinite, number * scale < 1e15 else {
                throw wrongType(pointer, "a size such as \"56 kb\" or \"1 Mb\"")
            }
            return Int(number * scale)
        default:
            throw wrongType(pointer, "a size such as \"56 kb\" or \"1 Mb\"")
        }
    }

    private static func bool(_ json: JSONValue, _ key: String, at prefix: String = "") throws(WireMockError) -> Bool? {
        switch json[member: key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw wrongType(prefix + key, "true or false")
        }
    }

    private static func wrongType(_ path: String, _ expected: String) -> WireMockError {
        .invalid("/" + path, "Error parsing JSON", detail: "\(path) must be \(expected)")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
