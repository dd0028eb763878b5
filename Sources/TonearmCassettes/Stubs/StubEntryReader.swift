import Foundation
import Tonearm

/// Reads one entry of a stub document (see ``StubSchema``) into a rule or an exact-stub track.
struct StubEntryReader {
    enum Entry {
        case track(Track)
        case rule(Rule)
    }

    let cursor: DocumentCursor
    let index: Int
    let options: StubSchema.Options
    /// The entry's `name`, or `rule N`, for errors.
    private(set) var name: String

    init(cursor: DocumentCursor, index: Int, options: StubSchema.Options) {
        self.cursor = cursor
        self.index = index
        self.options = options
        self.name = "rule \(index + 1)"
    }

    private var label: String { "rule \(name.debugDescription)" }

    mutating func read() throws(CassetteError) -> Entry {
        _ = try cursor.members()
        if let given = try cursor.optionalString("name") { name = given }
        try cursor.refuseUnknownMembers(known: StubSchema.entryKeys, owner: label)
        try refuseTogether(["url", "path", "pattern"])
        try refuseTogether(["body", "json", "file"])
        try refuseTogether(["transportError", "error"])
        if let errorKey = ["transportError", "error"].first(where: cursor.has),
            let clash = ["status", "headers", "body", "json", "file"].first(where: cursor.has),
            let member = try cursor.member(clash)
        {
            throw member.error(
                expected: "either \"\(errorKey)\" or a response in \(label)", found: "\"\(clash)\" as well")
        }

        let method = try cursor.optionalString("method")
        let (outcome, bodyFile) = try readOutcome()
        let delay = try cursor.member("delayMilliseconds").map { (delay) throws(CassetteError) in
            Duration.milliseconds(try delay.integer(in: 0...Int.max, of: label))
        }
        let conditions = try StubConditionReader(owner: label).read(cursor)
        let scenario = try readScenario()

        if options.urlMeaning == .exact, let url = try cursor.member("url") {
            guard conditions.isEmpty, !cursor.has("target"), !cursor.has("priority") else {
                let extra = ["query", "requestHeaders", "requestBody", "target", "priority"].first { cursor.has($0) } ?? "query"
                throw try cursor.required(extra, expected: "").error(
                    expected: "no \"\(extra)\" in \(label), whose \"url\" is one exact URL (use \"pattern\" for a rule)",
                    found: "\"\(extra)\"")
            }
            let request = Request(method: (method ?? "GET").uppercased(), url: try url.string())
            let trackName = cursor.has("name") ? name : "\(request.method) \(request.url)"
            return .track(Track(request: request, outcome: outcome, name: trackName, delay: delay, scenario: scenario))
        }

        let (pattern, target) = try patternAndTarget()
        let priority = try cursor.member("priority").map { (priority) throws(CassetteError) in
            try priority.integer(in: Int(Int32.min)...Int(Int32.max), of: label)
        }
        return .rule(Rule(
            name: name, method: method, pattern: pattern, target: target, query: conditions.query,
            headers: conditions.headers, body: conditions.body, priority: priority, outcome: outcome,
            delay: delay, bodyFile: bodyFile, scenario: scenario))
    }

    /// `scenario`: `{"name", "requiredState", "newState"}`, as in the native format; unknown members are
    /// refused like everywhere in the schema.
    private func readScenario() throws(CassetteError) -> ScenarioStep? {
        guard let scenario = try cursor.member("scenario") else { return nil }
        try scenario.refuseUnknownMembers(known: ["name", "requiredState", "newState"], owner: "the scenario of \(label)")
        return try NativeTrackCodec.readScenario(scenario)
    }

    /// Refuses an entry that has more than one of `keys`, naming the second.
    private func refuseTogether(_ keys: [String]) throws(CassetteError) {
        let present = keys.filter { cursor.has($0) }
        guard present.count > 1, let second = try cursor.firstMember(present[1], present[0]) else { return }
        throw second.error(
            expected: "only one of " + present.map { "\"\($0)\"" }.joined(separator: " and ") + " in \(label)",
            found: "both")
    }

    private func patternAndTarget() throws(CassetteError) -> (String, Rule.Target) {
        let chosen: DocumentCursor
        var target: Rule.Target
        if let path = try cursor.member("path") {
            chosen = path
            target = .path
        } else if let url = try cursor.firstMember(options.urlMeaning == .pattern ? "url" : "pattern", "pattern") {
            chosen = url
            target = .url
        } else {
            let keys = options.urlMeaning == .pattern
                ? "a \"url\", \"path\" or \"pattern\" regular expression" : "an exact \"url\", or a \"pattern\" or \"path\" regular expression"
            throw cursor.error(expected: "\(keys) in \(label)", found: "none of them")
        }
        if let given = try cursor.member("target") {
            guard !cursor.has("path") else {
                throw given.error(expected: "no \"target\" next to \"path\" in \(label)", found: "\"target\"")
            }
            switch try given.string() {
            case "url": target = .url
            case "path": target = .path
            case let other: throw given.error(expected: "\"url\" or \"path\"", found: other.debugDescription)
            }
        }
        let pattern = try chosen.string()
        try chosen.checkRegex(pattern, owner: label)
        return (pattern, target)
    }

    private func readOutcome() throws(CassetteError) -> (Track.Outcome, String?) {
        if let error = try cursor.firstMember("transportError", "error") {
            let identifier = try error.string()
            guard let transportError = TransportError(identifier: identifier) else {
                throw error.error(
                    expected: "a transport error (\(TransportError.named.map(\.identifier).joined(separator: ", "))) for \(label)",
                    found: identifier.debugDescription)
            }
            return (.transportError(transportError), nil)
        }
        var headers = try StubHeaderReader.read(cursor.member("headers"))
        var body: [UInt8] = []
        var bodyFile: String?
        if let text = try cursor.member("body") {
            body = Array(try text.string().utf8)
        } else if let json = try cursor.member("json") {
            body = StubDocumentSyntax.jsonBody(json)
            if headers.first(named: "Content-Type") == nil { headers.insert(HeaderField("Content-Type", "application/json"), at: 0) }
        } else if let file = try cursor.member("file") {
            let relative = try file.string()
            body = try BodyFileConfinement.read(relative, at: file, options.bodyFiles, owner: label)
            bodyFile = relative
        }
        let status = try cursor.member("status").map { (status) throws(CassetteError) in try status.integer(in: RecordedLimits.statuses, of: label) } ?? 200
        return (.response(Response(status: status, headers: headers, body: body)), bodyFile)
    }
}

/// Response headers: an object (`{Name: value}`, in document order) or a list of `[name, value]` pairs.
enum StubHeaderReader {
    static func read(_ cursor: DocumentCursor?) throws(CassetteError) -> [HeaderField] {
        guard let cursor else { return [] }
        switch cursor.node.value {
        case .object:
            var fields: [HeaderField] = []
            for (name, value) in try cursor.members() { fields.append(HeaderField(name, try value.scalarText())) }
            return fields
        case .array:
            return try NativeTrackCodec.readHeaders(cursor)
        default:
            throw cursor.error(expected: "headers as an object or a list of [name, value] pairs")
        }
    }
}

extension DocumentCursor {
    /// The first of `keys` this object has with a non-null value.
    func firstMember(_ keys: String...) throws(CassetteError) -> DocumentCursor? {
        for key in keys {
            if let found = try member(key) { return found }
        }
        return nil
    }

    /// An integer within `range`; anything else (a string, a fraction) is an error naming `owner`.
    func integer(in range: ClosedRange<Int>, of owner: String) throws(CassetteError) -> Int {
        guard case .number(let text) = node.value else { throw error(expected: "an integer") }
        guard let value = Int(text) ?? Double(text).flatMap({ $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil }) else {
            throw error(expected: "an integer", found: text)
        }
        guard range.contains(value) else {
            throw error(expected: "an integer from \(range.lowerBound) to \(range.upperBound) in \(owner)", found: text)
        }
        return value
    }

    /// Checks `pattern` as the rule set will (``LinearPattern``: the syntax a linear-time matcher runs,
    /// within the program-size cap), so the error points into the document.
    func checkRegex(_ pattern: String, owner: String) throws(CassetteError) {
        do throws(PatternProblem) {
            try LinearPattern.check(pattern)
        } catch {
            throw self.error(expected: "a usable regular expression for \(owner)", found: "\(pattern.debugDescription) (\(error.message))")
        }
    }

    /// Refuses members whose names are not in `known`, suggesting the nearest known name. With
    /// `allowingExtensions`, members named `x-…` are left alone: a YAML file keeps its anchors there
    /// (`x-json-headers: &json {…}`), as Compose files do.
    func refuseUnknownMembers(known: [String], owner: String, allowingExtensions: Bool = false) throws(CassetteError) {
        guard case .object = node.value else { throw error(expected: "an object") }
        for (key, value) in try members() where !known.contains(key) {
            if allowingExtensions && key.hasPrefix("x-") { continue }
            var expected = "a member of \(owner) (\(known.map { "\"\($0)\"" }.joined(separator: ", ")))"
            if let nearest = KeySuggestion.nearest(to: key, in: known) {
                expected = "a known member of \(owner); did you mean \"\(nearest)\"?"
            }
            throw value.error(expected: expected, found: "unknown member \(key.debugDescription)")
        }
    }
}
