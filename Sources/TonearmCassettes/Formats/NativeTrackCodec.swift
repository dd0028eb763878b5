import Foundation
import Tonearm

/// Writes and reads one track of the native format (also the content of a stub-folder file).
enum NativeTrackCodec {
    // MARK: Writing

    /// The track as a JSON object; an error (at `path`, e.g. `$.tracks[3]`) when it holds a value the
    /// reader would refuse, so nothing is written that does not load back.
    static func output(_ entry: CassetteEntry, at path: String) throws(CassetteError) -> JSONOutput {
        try RecordedLimits.check(entry, at: path)
        let track = entry.track
        var members: [(String, JSONOutput)] = []
        if let name = track.name { members.append(("name", .string(name))) }
        if let recordedAt = entry.recordedAt.flatMap(Timestamp.cassetteText) { members.append(("recordedAt", .string(recordedAt))) }
        members.append(("request", requestOutput(track.request)))
        switch track.outcome {
        case .response(let response): members.append(("response", responseOutput(response, pacing: track.pacing)))
        case .transportError(let error): members.append(("transportError", transportErrorOutput(error)))
        }
        if let conversation = track.webSocket { members.append(("webSocket", NativeWebSocketCodec.output(conversation))) }
        if let delay = track.delay.flatMap(RecordedLimits.milliseconds) { members.append(("delayMilliseconds", .int(delay))) }
        if let scenario = track.scenario { members.append(("scenario", scenarioOutput(scenario))) }
        if !entry.hints.isEmpty { members.append(("hints", hintsOutput(entry.hints))) }
        return .object(members)
    }

    /// A track's or rule's scenario: `{"name", "requiredState", "newState"}`, the states when set.
    static func scenarioOutput(_ step: ScenarioStep) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("name", .string(step.name))]
        if let state = step.requiredState { members.append(("requiredState", .string(state))) }
        if let state = step.newState { members.append(("newState", .string(state))) }
        return .object(members)
    }

    static func requestOutput(_ request: Request) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("method", .string(request.method)), ("url", .string(request.url))]
        appendHeadersAndBody(request.headers, request.body, to: &members)
        return .object(members)
    }

    /// The response object; a paced body as ``NativeStreamCodec`` keeps it.
    static func responseOutput(_ response: Response, pacing: BodyPacing? = nil) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("status", .int(response.status))]
        guard let pacing else {
            appendHeadersAndBody(response.headers, response.body, to: &members)
            return .object(members)
        }
        appendHeadersAndBody(response.headers, [], to: &members)
        NativeStreamCodec.appendBody(of: response, pacing: pacing, to: &members)
        return .object(members)
    }

    private static func appendHeadersAndBody(_ headers: [HeaderField], _ body: [UInt8], to members: inout [(String, JSONOutput)]) {
        if !headers.isEmpty {
            members.append(("headers", .array(headers.map { .inlineArray([.string($0.name), .string($0.value)]) })))
        }
        if let body = BodyStorage.choose(for: body, contentType: headers.first(named: "Content-Type")).output {
            members.append(("body", body))
        }
    }

    private static func transportErrorOutput(_ error: TransportError) -> JSONOutput {
        if let code = error.platformCode, let message = error.message {
            return .object([("code", .int(code)), ("message", .string(message))])
        }
        return .string(error.identifier)
    }

    private static func hintsOutput(_ hints: TrackHints) -> JSONOutput {
        var members: [(String, JSONOutput)] = []
        if let sequence = hints.sequence { members.append(("sequence", .string(sequence))) }
        return .object(members)
    }

    // MARK: Reading

    static func read(_ cursor: DocumentCursor) throws(CassetteError) -> CassetteEntry {
        let request = try readRequest(try cursor.required("request", expected: "a request object"))
        let outcome: Track.Outcome
        var pacing: BodyPacing?
        if let response = try cursor.member("response") {
            let read = try readPacedResponse(response)
            outcome = .response(read.response)
            pacing = read.pacing
        } else if let error = try cursor.member("transportError") {
            outcome = .transportError(try readTransportError(error))
        } else {
            throw cursor.missing("response", expected: "a \"response\" or a \"transportError\"")
        }
        var delay: Duration?
        if let value = try cursor.member("delayMilliseconds") { delay = try value.delay() }
        var recordedAt: Date?
        if let value = try cursor.member("recordedAt") {
            guard let date = Timestamp.parseISO8601(try value.string()) else {
                throw value.error(
                    expected: "an ISO 8601 time such as 2024-01-19T11:41:09.123Z, from year 0000 to 9999",
                    found: "\(try value.string().debugDescription)")
            }
            recordedAt = date
        }
        let hintsCursor = try cursor.member("hints")
        var scenario = try legacyScenario(hintsCursor)
        if let member = try cursor.member("scenario") { scenario = try readScenario(member) }
        let webSocket = try cursor.member("webSocket").map { (member) throws(CassetteError) in try NativeWebSocketCodec.read(member) }
        let track = Track(
            request: request, outcome: outcome, name: try cursor.optionalString("name"), delay: delay, scenario: scenario,
            pacing: pacing, webSocket: webSocket)
        return CassetteEntry(track, recordedAt: recordedAt, hints: try readHints(hintsCursor))
    }

    /// `{"name", "requiredState", "newState"}`: a scenario needs a name, the states are optional.
    static func readScenario(_ cursor: DocumentCursor) throws(CassetteError) -> ScenarioStep {
        guard case .object = cursor.node.value else {
            throw cursor.error(expected: "a scenario object {\"name\", \"requiredState\", \"newState\"}")
        }
        let name = try cursor.required("name", expected: "the scenario's name").string()
        return ScenarioStep(
            name, requiredState: try cursor.optionalString("requiredState"), newState: try cursor.optionalString("newState"))
    }

    /// Cassettes written before scenarios were enforced kept WireMock's scenario as hints: `sequence`
    /// (the scenario's name), `requiredState` and `nextState`. They load as the track's scenario.
    private static func legacyScenario(_ hints: DocumentCursor?) throws(CassetteError) -> ScenarioStep? {
        guard let hints, let name = try hints.optionalString("sequence") else { return nil }
        let required = try hints.optionalString("requiredState"), next = try hints.optionalString("nextState")
        guard required != nil || next != nil else { return nil }
        return ScenarioStep(name, requiredState: required, newState: next)
    }

    static func readRequest(_ cursor: DocumentCursor) throws(CassetteError) -> Request {
        let method = try cursor.required("method", expected: "a method string").string()
        let url = try cursor.required("url", expected: "a URL string").string()
        let headers = try readHeaders(cursor.member("headers"))
        let body = try cursor.member("body").map { (body) throws(CassetteError) in try BodyStorage.read(body) } ?? []
        return Request(method: method, url: url, headers: headers, body: body)
    }

    static func readResponse(_ cursor: DocumentCursor) throws(CassetteError) -> Response {
        try readPacedResponse(cursor).response
    }

    /// The response object and its body's pacing, when it has one (`events`, or `parts`).
    static func readPacedResponse(_ cursor: DocumentCursor) throws(CassetteError) -> (response: Response, pacing: BodyPacing?) {
        let status = try cursor.required("status", expected: "a status code").statusCode()
        let headers = try readHeaders(cursor.member("headers"))
        let (body, pacing) = try NativeStreamCodec.readBody(cursor)
        return (Response(status: status, headers: headers, body: body), pacing)
    }

    static func readHeaders(_ cursor: DocumentCursor?) throws(CassetteError) -> [HeaderField] {
        guard let cursor else { return [] }
        var fields: [HeaderField] = []
        for pair in try cursor.elements() {
            let items = try pair.elements()
            guard items.count == 2 else { throw pair.error(expected: "a [name, value] pair", found: "\(items.count) elements") }
            fields.append(HeaderField(try items[0].string(), try items[1].string()))
        }
        return fields
    }

    private static func readTransportError(_ cursor: DocumentCursor) throws(CassetteError) -> TransportError {
        if case .string(let identifier) = cursor.node.value {
            guard let error = TransportError(identifier: identifier) else {
                throw cursor.error(
                    expected: "one of " + TransportError.named.map(\.identifier).joined(separator: ", ") + ", or {\"code\", \"message\"}",
                    found: identifier.debugDescription)
            }
            return error
        }
        let code = try cursor.required("code", expected: "an error code").int()
        let message = try cursor.required("message", expected: "an error message").string()
        return .other(code: code, message: message)
    }

    private static func readHints(_ cursor: DocumentCursor?) throws(CassetteError) -> TrackHints {
        guard let cursor, try legacyScenario(cursor) == nil else { return TrackHints() }
        return TrackHints(sequence: try cursor.optionalString("sequence"))
    }
}
