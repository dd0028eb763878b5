import Foundation
import Tonearm
import TonearmServer
import TonearmCassettes
import TonearmReplay

/// How mappings are read: where `bodyFileName` is found, which responses are templated (none, those
/// naming `response-template`, or all: ``ServerConfiguration/WireMock/ResponseTemplating``), and whether
/// templates HTML-escape what they write. WireMock 3.x's defaults.
struct WireMockMappingReading: Sendable {
    /// The `__files` folder `bodyFileName` is read from.
    var bodyFiles: URL?
    /// Which mappings' responses are templates.
    var templating = ServerConfiguration.WireMock.ResponseTemplating.local
    /// The WireMock version whose templates are rendered: 2.35's HTML-escape `{{…}}` output and have no
    /// `request.clientIp`; 3.x's do not escape and have it.
    var version = ServerConfiguration.WireMock.Version.v3

    /// As `wireMock` configures it, body files from `bodyFiles`.
    init(bodyFiles: URL?, _ wireMock: ServerConfiguration.WireMock) {
        self.bodyFiles = bodyFiles
        templating = wireMock.effectiveResponseTemplating
        version = wireMock.version
    }

    /// WireMock 3.x's reading, body files from `bodyFiles`.
    init(bodyFiles: URL? = nil) {
        self.bodyFiles = bodyFiles
    }
}

/// What a mapping's response does per request beyond the response the engine holds for it: the
/// `response-template` transformer (body and header values rendered against the request), the
/// `statusMessage` sent as the reason phrase, and a random `delayDistribution`. Read and compiled once
/// when the mapping is added; a mapping without any of them has none, and its answers cost nothing more.
struct WireMockResponseSettings: Sendable {
    /// The response members read here rather than by the importer, which knows only fixed responses.
    static let members: Set<String> = ["transformers", "transformerParameters", "statusMessage", "delayDistribution", "chunkedDribbleDelay", "proxyBaseUrl", "additionalProxyRequestHeaders",
    ]

    /// The body, rendered per request; `nil` sends the held body.
    var body: ResponseTemplate?
    /// Header values rendered per request, by their place among the held response's headers.
    var headers: [(index: Int, template: ResponseTemplate)] = []
    /// A `bodyFileName` that is itself a template (`users/{{request.pathSegments.[1]}}.json`): the file
    /// named for each request, inside `folder`, its content rendered too.
    var bodyFile: (name: ResponseTemplate, folder: URL)?
    /// The reason phrase of the status line, as sent (WireMock does not template it).
    var statusMessage: String?
    /// A random delay added to the mapping's fixed one, drawn per request.
    var delay: WireMockDelayDistribution?
    /// The body written in pieces over a time (`chunkedDribbleDelay`).
    var dribble: Dribble?
    /// The upstream the request is sent on to (`proxyBaseUrl`), whose answer is sent back.
    var proxy: WireMockProxy?
    /// Whether the templates HTML-escape `{{…}}` output (WireMock 2.35's, ``WireMockMappingReading/version``).
    var templateEscaping = true
    /// Whether templates see the client's address as `request.clientIp` (WireMock 3's model).
    var modelsClientAddress = true
    /// The mapping's `urlPathTemplate` (WireMock 3), whose parameters templates read as
    /// `request.path.name`.
    var pathTemplate: PathTemplate?

    /// The members of `response` read here: those above, and a templated `bodyFileName` (the importer
    /// would look for a file named by the template's text).
    static func members(of response: JSONValue, reading: WireMockMappingReading) throws(WireMockError) -> [String] {
        var found = members.filter { response[member: $0] != nil }.sorted()
        if let name = response[member: "bodyFileName"]?.stringValue, ResponseTemplate.hasTags(name), try templates(response, reading: reading) {
            found.append("bodyFileName")
        }
        return found
    }

    /// The settings of `response` (a mapping's `response` object) whose fixed part the engine holds as
    /// `held`, or `nil` when it has none.
    /// `pathTemplate` is the mapping's `urlPathTemplate`, if it has one.
    static func read(
        _ response: JSONValue?, held: Track.Outcome, pathTemplate: PathTemplate? = nil, reading: WireMockMappingReading
    ) throws(WireMockError) -> WireMockResponseSettings? {
        guard let response else { return nil }
        var settings = WireMockResponseSettings()
        if let message = response[member: "statusMessage"] {
            guard let text = message.stringValue else {
                throw .invalid("/response/statusMessage", "Invalid stub mapping", detail: "statusMessage must be a string")
            }
            settings.statusMessage = try reasonPhrase(text)
        }
        if let distribution = response[member: "delayDistribution"] {
            settings.delay = try WireMockDelayDistribution(distribution)
        }
        if let base = response[member: "proxyBaseUrl"] {
            settings.proxy = try WireMockProxy(base: base, headers: response[member: "additionalProxyRequestHeaders"])
        } else if response[member: "additionalProxyRequestHeaders"] != nil {
            throw .invalid("/response/additionalProxyRequestHeaders", "Invalid stub mapping", detail: "additionalProxyRequestHeaders needs a proxyBaseUrl")
        }
        if let dribble = response[member: "chunkedDribbleDelay"] {
            settings.dribble = try Dribble(wireMock: dribble)
        }
        if try templates(response, reading: reading), case .response(let fixed) = held {
            settings.templateEscaping = reading.version.escapesTemplates
            settings.modelsClientAddress = reading.version == .v3
            try settings.compileTemplates(response, fixed)
            settings.pathTemplate = pathTemplate
            if let name = response[member: "bodyFileName"]?.stringValue, ResponseTemplate.hasTags(name) {
                guard let folder = reading.bodyFiles else {
                    throw .invalid("/response/bodyFileName", "Invalid stub mapping", detail: "bodyFileName needs a __files folder: start the server with --root-dir DIR")
                }
                settings.bodyFile = (try compile(name, at: "/response/bodyFileName"), folder)
            }
        }
        let isEmpty = settings.body == nil && settings.bodyFile == nil && settings.headers.isEmpty && settings.statusMessage == nil && settings.delay == nil
            && settings.dribble == nil && settings.proxy == nil
        return isEmpty ? nil : settings
    }

    /// Whether the response is templated: `"transformers": ["response-template"]` unless templating is
    /// off, or every mapping with global templating. Another transformer is refused: Tonearm has no
    /// extensions to run it (with templating off too: the mapping means something Tonearm cannot do).
    private static func templates(_ response: JSONValue, reading: WireMockMappingReading) throws(WireMockError) -> Bool {
        guard let transformers = response[member: "transformers"] else { return reading.templating == .global }
        guard case .array(let names) = transformers else {
            throw .invalid("/response/transformers", "Invalid stub mapping", detail: "transformers must be a list of transformer names")
        }
        for (index, name) in names.enumerated() where name.stringValue != "response-template" {
            throw .invalid(
                "/response/transformers/\(index)", "Unsupported stub mapping feature",
                detail: "transformer \(name.stringValue.map { "\"\($0)\"" } ?? "\(name)") is not available: Tonearm runs response-template only; the mapping was refused")
        }
        return reading.templating == .global || (reading.templating == .local && !names.isEmpty)
    }

    /// The body and header templates, from the held response: its body is what `body`, `jsonBody` or
    /// `bodyFileName` say (WireMock renders all three, not `base64Body`), its headers are the mapping's.
    private mutating func compileTemplates(_ response: JSONValue, _ fixed: Response) throws(WireMockError) {
        if response[member: "base64Body"] == nil, let text = String(bytes: fixed.body, encoding: .utf8), ResponseTemplate.hasTags(text) {
            let member = ["body", "jsonBody", "bodyFileName"].first { response[member: $0] != nil } ?? "body"
            body = try Self.compile(text, at: "/response/\(member)")
        }
        // The naming headers (a mapping's name in Matched-Stub-Name) are Tonearm's, never templates.
        for (index, field) in fixed.headers.enumerated() where ResponseTemplate.hasTags(field.value) && !field.name.hasPrefix("Matched-Stub-") {
            headers.append((index, try Self.compile(field.value, at: "/response/headers/\(field.name)")))
        }
    }

    private static func compile(_ text: String, at pointer: String) throws(WireMockError) -> ResponseTemplate {
        do throws(TemplateError) {
            return try ResponseTemplate(parsing: text)
        } catch {
            throw .invalid(pointer, "Invalid response template", detail: "\(pointer): \(error)")
        }
    }

    /// A reason phrase as HTTP allows it (RFC 9112: tab, space, visible characters): anything else could
    /// split the status line.
    private static func reasonPhrase(_ text: String) throws(WireMockError) -> String {
        guard text.unicodeScalars.allSatisfy({ $0 == "\t" || (0x20..<0x7f).contains($0.value) || $0.value >= 0x80 && $0.value <= 0xff }) else {
            throw .invalid("/response/statusMessage", "Invalid stub mapping", detail: "statusMessage must be one line of visible characters")
        }
        return text
    }

    // MARK: Per request

    /// `held` as answered to `request`: body and header values rendered when templated. A template that
    /// reaches its limits is answered 500 with the reason, as WireMock answers a template that fails.
    /// `clientAddress` is the client's IP address, `request.clientIp` in WireMock 3's templates.
    func rendered(_ held: Response, for request: Request, clientAddress: String? = nil) -> Response {
        guard body != nil || bodyFile != nil || !headers.isEmpty else { return held }
        let host = request.headers.first(named: "Host") ?? "localhost"
        let model = TemplateRequestModel(
            request, baseURL: "http://\(host)", pathTemplate: pathTemplate, clientAddress: modelsClientAddress ? clientAddress : nil)
        var answer = held
        do throws(TemplateError) {
            if let body { answer.body = Array(try body.render(model, escaping: templateEscaping).utf8) }
            if let bodyFile {
                guard let bytes = try Self.bodyFile(named: try bodyFile.name.render(model, escaping: templateEscaping), in: bodyFile.folder) else {
                    return Self.failed("the body file it names was not found in \(bodyFile.folder.path)", held)
                }
                answer.body = bytes
                if let text = String(bytes: bytes, encoding: .utf8), ResponseTemplate.hasTags(text) {
                    answer.body = Array(try ResponseTemplate(parsing: text).render(model, escaping: templateEscaping).utf8)
                }
            }
            for (index, template) in headers where answer.headers.indices.contains(index) {
                answer.headers[index].value = try template.render(model, escaping: templateEscaping)
            }
        } catch {
            return Self.failed("its response template could not be rendered: \(error)", held)
        }
        return answer
    }

    /// The 500 for a mapping whose answer could not be made, with its naming headers.
    private static func failed(_ reason: String, _ held: Response) -> Response {
        ServerCore.plainText(500, "tonearm: the mapping answering this request failed: \(reason)", extra: held.headers.filter { $0.name.hasPrefix("Matched-Stub-") })
    }

    /// The bytes of the body file `name` (rendered for a request) in `folder`, or `nil` when there is no
    /// such file. A name leading out of the folder (`..`, an absolute path, a link) is a render error: a
    /// request must not choose which file of the machine is served.
    private static func bodyFile(named name: String, in folder: URL) throws(TemplateError) -> [UInt8]? {
        guard !name.hasPrefix("/"), !name.hasPrefix("~"), !name.split(separator: "/").contains("..") else {
            throw TemplateError(position: nil, expected: "a body file name inside __files", found: name.debugDescription)
        }
        let file: URL
        do throws(FolderConfinement.Escape) {
            file = try FolderConfinement(root: folder).resolve(name)
        } catch {
            throw TemplateError(position: nil, expected: "a body file inside __files", found: error.description)
        }
        return FileManager.default.contents(atPath: file.path).map(Array.init)
    }
}
