import Foundation
import Tonearm
import TonearmServer
import TonearmCassettes

/// One WireMock stub mapping as the admin API holds it: its id, the JSON it echoes, and what the
/// engine answers with — a track when it names one exact request (O(1) by key), a rule otherwise.
///
/// Decoding goes through the WireMock importer (``WireMockFormat``), the one reader of mappings; what
/// the importer would only warn about (a matcher or response feature Tonearm does not reproduce) is
/// refused here with a 422 naming the member, because a stub server that silently ignores part of a
/// stub answers requests the test did not mean it to.
struct WireMockMapping: Sendable {
    /// What answers for the mapping.
    enum Stub: Sendable {
        case track(Track)
        case rule(Rule)
    }

    /// The lowercase UUID WireMock clients address the mapping by.
    let id: String
    /// The mapping as echoed: as sent, with `id` (and `uuid`) set and its matchers written as they are
    /// read (``JSONValue/withMatchersAsRead()``).
    let json: JSONValue
    let stub: Stub
    /// Whether its request pattern matches on the client's address (WireMock 3's `clientIp`).
    var readsClientAddress: Bool { json[member: "request"]?[member: "clientIp"] != nil }
    /// The mapping's `priority`, when it gives one (the importer refuses one that is not an integer).
    var priority: Int? {
        guard case .number(let text)? = json[member: "priority"] else { return nil }
        return Int(text)
    }
    /// What the response does per request beyond the held one (templates, status message, random
    /// delay), or `nil`.
    var settings: WireMockResponseSettings?
    /// The file in the root directory the mapping was loaded from or saved to, if any: WireMock deletes
    /// it with the mapping.
    var file: SavedFile?

    /// A mapping's file in the root directory's `mappings` folder.
    struct SavedFile: Sendable {
        let url: URL
        /// Whether the file holds other mappings too (`{"mappings": [...]}`): it is then never deleted.
        let isShared: Bool
    }

    /// Decodes one mapping object; `bytes` are its JSON as sent, `source` names it in errors
    /// (`POST /__admin/mappings`), `id` overrides the one in the mapping (PUT), `reading` says where
    /// `bodyFileName` is read from and whether responses are templates.
    static func decode(
        _ bytes: [UInt8], source: String, id forcedID: String? = nil, reading: WireMockMappingReading
    ) throws(WireMockError) -> WireMockMapping {
        // Parsed once: the importer reads the tree, the server the same content as JSON.
        let document: WireMockMappingDocument
        do throws(CassetteError) {
            document = try WireMockMappingDocument(parsing: bytes, file: source)
        } catch {
            throw .invalid(nil, "Error parsing JSON", detail: error.description)
        }
        let json = document.json
        guard case .object = json else {
            throw .invalid("", "Error parsing JSON", detail: "\(source): expected a stub mapping object")
        }
        let id: String
        if let forcedID { id = forcedID } else { id = try mappingID(json) }
        // WireMock takes a mapping without `request` as any request, and without `response` as 200 with
        // no body, and echoes both filled in (`"method": "ANY"`); the importer is told the same.
        var request = json[member: "request"] ?? .object([])
        if request[member: "method"] == nil { request = request.setting("method", to: .string("ANY")) }
        // WireMock reads `basicAuth` as `basicAuthCredentials` and echoes it under that name.
        if let credentials = request[member: "basicAuth"], request[member: "basicAuthCredentials"] == nil {
            request = request.removing("basicAuth").setting("basicAuthCredentials", to: credentials)
        }
        request = request.withMatchersAsRead()
        var response = json[member: "response"] ?? .object([])
        if response[member: "status"] == nil { response = response.setting("status", to: .integer(200)) }
        let completed = json.setting("request", to: request).setting("response", to: response)
        // What the response does per request is read below, not by the importer.
        let perRequest = try WireMockResponseSettings.members(of: response, reading: reading)
        let imported: CassetteImport
        do throws(CassetteError) {
            imported = try document.decode(removingResponseMembers: perRequest, bodyFiles: reading.bodyFiles)
        } catch {
            throw .invalid(WireMockError.pointer(forPath: error.path), "Error parsing JSON", detail: error.description)
        }
        if let warning = imported.warnings.first {
            throw .invalid(
                WireMockError.pointer(forPath: warning.path), "Unsupported stub mapping feature",
                detail: "\(warning.message.replacingOccurrences(of: "was not imported", with: "was refused")) (Tonearm refuses what it cannot reproduce rather than ignore it)")
        }
        let stub: Stub
        var name: String?
        if case .string(let given)? = json[member: "name"] { name = given }
        let naming = namingHeaders(id: id, name: name)
        if let track = imported.cassette.tracks.first, imported.rules.isEmpty, imported.cassette.entries.count == 1 {
            var named = track
            named.name = id
            named.outcome = named.outcome.adding(naming)
            stub = .track(named)
        } else if let rule = imported.rules.first, imported.rules.count == 1, imported.cassette.entries.isEmpty {
            var named = rule
            named.name = id
            named.outcome = named.outcome.adding(naming)
            stub = .rule(named)
        } else {
            throw .invalid(nil, "Invalid stub mapping", detail: "\(source): expected exactly one stub mapping")
        }
        let held = switch stub {
        case .track(let track): track.outcome
        case .rule(let rule): rule.outcome
        }
        let pathTemplate: PathTemplate? = if case .rule(let rule) = stub { rule.pathTemplate } else { nil }
        let settings = try WireMockResponseSettings.read(response, held: held, pathTemplate: pathTemplate, reading: reading)
        let echoed = completed.setting("id", to: .string(id)).setting("uuid", to: .string(id))
        return WireMockMapping(id: id, json: echoed, stub: stub, settings: settings)
    }

    /// WireMock names the mapping that answered in every answer (`Matched-Stub-Id`, and `Matched-Stub-Name`
    /// when it has a name), for clients and proxies in between to log; set once here rather than per request.
    private static func namingHeaders(id: String, name: String?) -> [HeaderField] {
        [HeaderField("Matched-Stub-Id", id)] + (name.map { [HeaderField("Matched-Stub-Name", $0)] } ?? [])
    }

    /// The mapping's `id` (or `uuid`) when it has one, lowercased; a fresh one otherwise (also for `null`
    /// and `""`, which WireMock takes as no id).
    private static func mappingID(_ json: JSONValue) throws(WireMockError) -> String {
        for key in ["id", "uuid"] {
            guard let value = json[member: key], value != .null, value != .string("") else { continue }
            guard let text = value.stringValue, let uuid = UUID(uuidString: text) else {
                throw .invalid("/\(key)", "Error parsing JSON", detail: "\(key) must be a UUID")
            }
            return uuid.uuidString.lowercased()
        }
        return freshID()
    }

    /// A random (version 4) UUID in lowercase, written straight from two random words: Foundation's
    /// `UUID().uuidString.lowercased()` took three times as long (≈ 5 µs a mapping, measured with perf).
    static func freshID() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() & 0xffff_ffff_ffff_0fff | 0x4000  // version 4
        let low = generator.next() & 0x3fff_ffff_ffff_ffff | 0x8000_0000_0000_0000  // RFC 4122 variant
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (offset, word) in [(0, high), (16, low)] {
            for nibble in 0..<16 {
                if [8, 12, 16, 20].contains(offset + nibble) { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(truncatingIfNeeded: word >> UInt64(60 - 4 * nibble)) & 0xf])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether the mapping asks to be written to the root directory as soon as it is added.
    var isPersistent: Bool { json[member: "persistent"] == .bool(true) }

    /// The mapping as saved: `"persistent": true`.
    var markedPersistent: WireMockMapping {
        WireMockMapping(id: id, json: json.setting("persistent", to: .bool(true)), stub: stub, settings: settings, file: file)
    }

    /// The mapping's scenario step, if it takes part in one.
    var scenario: ScenarioStep? {
        switch stub {
        case .track(let track): track.scenario
        case .rule(let rule): rule.scenario
        }
    }

    /// The mapping's `metadata` object, or `nil`.
    var metadata: JSONValue? { json[member: "metadata"] }

    /// The mapping's response definition, for serve events.
    var responseDefinition: JSONValue { json[member: "response"] ?? .object([]) }
}

extension Track.Outcome {
    /// The outcome with `headers` after the response's own; a fault has no headers to add to.
    fileprivate func adding(_ headers: [HeaderField]) -> Track.Outcome {
        guard case .response(var response) = self else { return self }
        response.headers.append(contentsOf: headers)
        return .response(response)
    }
}

extension JSONValue {
    /// Members of a request pattern whose values are each one matcher.
    private static let matcherMaps = ["headers", "queryParameters", "cookies", "pathParameters", "formParameters"]
    /// A request pattern's URL matchers, in the order WireMock picks the one that counts.
    private static let urlMatchers = ["url", "urlPattern", "urlPath", "urlPathPattern", "urlPathTemplate"]

    /// This request pattern with its matchers written as both servers read them, which is what WireMock
    /// echoes: a client reading a mapping back (or a file saved from it) sees what it matches, not an
    /// option that has no effect.
    func withMatchersAsRead() -> JSONValue {
        var request = self
        // Only the first URL matcher counts (WireMock's order), so the others are not echoed.
        if let used = Self.urlMatchers.first(where: { request[member: $0] != nil }) {
            for unused in Self.urlMatchers where unused != used { request = request.removing(unused) }
        }
        for name in Self.matcherMaps {
            guard case .object(let members)? = request[member: name] else { continue }
            let read = members.map { JSONMember(key: $0.key, value: $0.value.matcherAsRead()) }
            request = request.setting(name, to: .object(read))
        }
        if case .array(let patterns)? = request[member: "bodyPatterns"] {
            request = request.setting("bodyPatterns", to: .array(patterns.map { $0.matcherAsRead() }))
        }
        return request
    }

    /// One matcher as it is read. Only the matcher's own options change: expected values (an
    /// `equalToJson` document, say) are never looked into.
    private func matcherAsRead() -> JSONValue {
        guard case .object(let members) = self else { return self }
        var matcher = JSONValue.object(members.map { (member: JSONMember) -> JSONMember in
            switch (member.key, member.value) {
            case ("and", .array(let nested)), ("or", .array(let nested)),
                ("hasExactly", .array(let nested)), ("includes", .array(let nested)):
                JSONMember(key: member.key, value: .array(nested.map { $0.matcherAsRead() }))
            case ("matchesJsonPath", .object), ("matchesXPath", .object):
                JSONMember(key: member.key, value: member.value.matcherAsRead())
            default:
                member
            }
        })
        // `absent` makes an absent matcher whatever its value.
        if matcher[member: "absent"] == .bool(false) { matcher = matcher.setting("absent", to: .bool(true)) }
        // `caseInsensitive` is an option of `equalTo` alone; beside another operator nothing reads it.
        if case .bool? = matcher[member: "caseInsensitive"], matcher[member: "equalTo"] == nil {
            matcher = matcher.removing("caseInsensitive")
        }
        // `exemptedComparisons` is read as a list of names; a single name is ignored.
        if case .string? = matcher[member: "exemptedComparisons"], matcher[member: "equalToXml"] != nil {
            matcher = matcher.removing("exemptedComparisons")
        }
        for dateOperator in ["before", "after", "equalToDateTime"] {
            if case .string(let expected)? = matcher[member: dateOperator] {
                return matcher.foldingExpectedOffset(into: dateOperator, expected: expected)
            }
        }
        return matcher
    }

    /// A date matcher with `expectedOffset` and `expectedOffsetUnit` written into its `now` (`now -30
    /// years`; `now` alone is `now +0 seconds`). Beside a fixed date the offset is not applied, so it is
    /// dropped there.
    private func foldingExpectedOffset(into dateOperator: String, expected: String) -> JSONValue {
        let folded = removing("expectedOffset").removing("expectedOffsetUnit")
        guard expected == "now" else { return folded }
        var offset = (amount: 0, unit: "seconds")
        if let amount = self[member: "expectedOffset"]?.intValue, let unit = self[member: "expectedOffsetUnit"]?.stringValue {
            offset = (amount, unit.lowercased())
        }
        let sign = offset.amount >= 0 ? "+" : ""
        return folded.setting(dateOperator, to: .string("now \(sign)\(offset.amount) \(offset.unit)"))
    }
}
