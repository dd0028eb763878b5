import Foundation
import Tonearm
import TonearmServer
import TonearmCassettes

/// WireMock's admin API under `/__admin` (see docs/server.md, "Coming from WireMock"): the subset its
/// Java and Python clients use, with WireMock's field names, shapes and status codes.
///
/// | Method and path | What it does |
/// | --- | --- |
/// | `POST mappings`, `GET mappings?limit&offset`, `DELETE mappings` | add (201), list (newest first), remove all |
/// | `GET`/`PUT`/`DELETE mappings/{id}` | one mapping (404 when absent) |
/// | `POST mappings/reset`, `POST mappings/save`, `POST mappings/remove-by-metadata` | defaults, persist, remove some |
/// | `POST mappings/new`, `/edit`, `/remove`, `/import`, `/find-by-metadata` | WireMock 2.x's create, replace, remove by id, add many, find |
/// | `POST reset` | mappings to defaults, journal cleared, scenarios back in Started |
/// | `GET requests`, `GET requests/{id}`, `DELETE requests`, `POST requests/reset` | the journal |
/// | `POST requests/remove`, `POST requests/remove-by-metadata`, `DELETE requests/{id}` | forget some of it |
/// | `POST requests/count`, `POST requests/find`, `GET requests/unmatched` | verification |
/// | `GET requests/unmatched/near-misses`, `POST near-misses/request`, `POST near-misses/request-pattern` | near misses |
/// | `GET scenarios`, `PUT scenarios/{name}/state`, `POST scenarios/reset` | scenarios |
/// | `GET`/`POST`/`PUT settings`, `GET health` | global fixed delay; health |
/// | `POST shutdown` | answered, then the server stops (``ShutdownRequest``) |
/// | `GET version`, `GET`/`DELETE mappings/unmatched`, `GET files/{name}` | WireMock 3.x's routes (``ServerConfiguration/WireMock/Version/v3``) |
/// | `GET docs`, `GET docs/swagger`, `GET swagger-ui` | this API's documents (``WireMockAdminDocument``) |
/// | `GET recordings/status`, `POST recordings/start`, `/stop`, `/snapshot` | the recorder (``WireMockRecorder``) |
struct WireMockAdmin: Sendable {
    /// The mappings the API lists and changes.
    let wireMock: WireMockStubs
    /// The journal its `requests` calls read and clear.
    let journal: Journal
    /// The server's address, for serve events' `absoluteUrl`.
    let address: ServerAddress
    /// The recorder's state (`recordings/...`).
    var recorder = WireMockRecorder()
    /// What recorded mappings hide before they are kept or written: the server's redaction.
    var redaction = Redaction.default
    /// Where `POST shutdown` asks the server to stop.
    var shutdown = ShutdownRequest()
    /// Whose routes answer (and how files are listed) where WireMock 2.35 and 3.x differ.
    var version = ServerConfiguration.WireMock.Version.v3
    /// The WireMock version whose admin API `GET version` names.
    static let wireMock3Version = "3.13.2"

    /// The query's parameters, decoded (`+` and `%20` are spaces).
    static func parameters(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in (String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding) ?? String(text) }
            guard let name = parts.first.map(decode) else { continue }
            result[name] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return result
    }
}

extension WireMockAdmin {
    /// The answer to an admin call; `path` follows `/__admin/`.
    func answer(path: String, query: String, request sent: ServerRequest) -> Response {
        let segments = path.split(separator: "/").map(String.init)
        let method = sent.method.uppercased()
        do throws(WireMockError) {
            var request = sent
            request.body = try Self.utf8Body(sent)
            switch (method, segments.first ?? "") {
            case ("GET", ""):
                return listMappings(query)
            case (_, "mappings"):
                return try mappings(method, Array(segments.dropFirst()), query: query, request: request)
            case ("POST", "reset") where segments.count == 1:
                try wireMock.resetToDefaults()
                journal.clear()
                return .adminDone
            case (_, "requests"):
                return try requests(method, Array(segments.dropFirst()), query: query, request: request)
            case ("POST", "near-misses") where segments.count == 2:
                return try nearMisses(segments[1], request: request)
            case (_, "scenarios"):
                return try scenarios(method, Array(segments.dropFirst()), request: request)
            case ("GET", "settings") where segments.count == 1:
                return .adminJSON(.object(["settings": settingsJSON]))
            case ("POST", "settings") where segments.count == 1, ("PUT", "settings") where segments.count == 1:
                return try updateSettings(request)
            case ("POST", "shutdown") where segments.count == 1:
                // As WireMock (2.35 and 3.x): answered, then the server stops as for SIGTERM, this answer
                // being an exchange in flight that the stop lets finish.
                shutdown.request("POST /__admin/shutdown")
                return Response(status: 200)
            case ("GET", "health") where segments.count == 1:
                return .adminJSON(health(now: Date()))
            case ("GET", "version") where segments.count == 1 && version == .v3:
                return Self.version(accept: sent.headers.first(named: "Accept"))
            case (_, "files"):
                return try files(method, Array(segments.dropFirst()), request: request)
            case (_, "recordings"):
                return try recordings(method, Array(segments.dropFirst()), request: request)
            case ("GET", "docs") where segments.count == 1:
                return Self.html(WireMockAdminDocument.index)
            case ("GET", "docs") where segments == ["docs", "swagger"]:
                return Response(
                    status: 200, headers: [HeaderField("Content-Type", "application/json")], body: Array(WireMockAdminDocument.openAPI.utf8))
            case ("GET", "swagger-ui") where segments.count == 1:
                // As WireMock: the folder's address redirects to the folder (the route drops trailing slashes).
                guard sent.target.split(separator: "?", maxSplits: 1).first?.hasSuffix("/") == true else {
                    return Response(status: 302, headers: [HeaderField("Location", "/__admin/swagger-ui/")])
                }
                return Self.html(WireMockAdminDocument.swaggerUI)
            default:
                return notFound(method, path)
            }
        } catch {
            return .adminError(error)
        }
    }

    /// `request`'s body as UTF-8: WireMock reads an admin body in the charset its `Content-Type` names
    /// (`application/json; charset=GB2312`), UTF-8 without one. A charset Foundation cannot decode
    /// here is refused (415, naming it), as is a body not in the charset it names (400).
    static func utf8Body(_ request: ServerRequest) throws(WireMockError) -> [UInt8] {
        guard let contentType = request.headers.first(named: "Content-Type"), let charset = MediaType.parameter("charset", in: contentType),
            !["utf-8", "utf8", "us-ascii"].contains(charset.lowercased()), !request.body.isEmpty
        else { return request.body }
        guard let encoding = String.Encoding(ianaName: charset) else {
            throw WireMockError(
                status: 415, pointer: nil, title: "Unsupported charset \(charset)",
                detail: "Tonearm decodes admin bodies in UTF-8, UTF-16, UTF-32, ISO-8859-1, windows-1252, Shift_JIS and EUC-JP")
        }
        guard let text = String(bytes: request.body, encoding: encoding) else {
            throw WireMockError(status: 400, pointer: nil, title: "Error parsing JSON", detail: "the body is not \(charset) text, as its Content-Type says")
        }
        return Array(text.utf8)
    }

    // MARK: Body files

    /// `GET files` lists `__files`: absolute paths, as WireMock 2.35 does, or (3.x) the names inside
    /// `__files` (`sub/b.txt`); `PUT files/NAME` writes a body
    /// file (folders made as needed) and answers its bytes as base64; `DELETE files/NAME` removes one.
    /// Names are taken as sent (percent escapes stay in the name, as WireMock keeps them) and confined to
    /// `__files`: `..` or a link leading out is refused.
    private func files(_ method: String, _ rest: [String], request: ServerRequest) throws(WireMockError) -> Response {
        guard let folder = wireMock.bodyFiles else {
            throw .invalid(nil, "No root directory", detail: "start the server with --root-dir DIR to manage body files in DIR/__files")
        }
        switch (method, rest.isEmpty) {
        case ("GET", true):
            let listed = ((FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])?.allObjects as? [URL]) ?? [])
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
                .map { version == .v2 ? $0.path : Self.name($0, inside: folder) }.sorted()
            return .adminJSON(.array(listed.map(JSONValue.string)))
        case ("GET", false) where version == .v3:
            // WireMock 3's: the file's bytes as they are, 404 when there is none (a folder included).
            let file = try confinedBodyFile(rest, in: folder)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue,
                let bytes = FileManager.default.contents(atPath: file.path)
            else { return Response(status: 404) }
            return Response(status: 200, body: Array(bytes))
        case ("PUT", false):
            try Self.writeBodyFile(request.body, to: try confinedBodyFile(rest, in: folder))
            return .adminJSON(.string(Data(request.body).base64EncodedString()))
        case ("DELETE", false):
            let file = try confinedBodyFile(rest, in: folder)
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw WireMockError(status: 404, pointer: nil, title: "No such body file", detail: "\(file.path) does not exist")
            }
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw WireMockError(status: 500, pointer: nil, title: "Cannot delete the body file", detail: "\(file.path): \(error.localizedDescription)")
            }
            return Response(status: 200)
        default:
            return notFound(method, (["files"] + rest).joined(separator: "/"))
        }
    }

    /// `file`'s name inside `folder` (`sub/b.txt`), as WireMock 3 lists body files.
    static func name(_ file: URL, inside folder: URL) -> String {
        let base = folder.standardizedFileURL.pathComponents, components = file.standardizedFileURL.pathComponents
        guard components.starts(with: base) else { return file.lastPathComponent }
        return components.dropFirst(base.count).joined(separator: "/")
    }

    /// `__files/NAME`, refused when it leads out of `__files`.
    /// Writes `bytes` to `file` (already confined to `__files`) atomically, creating its folder.
    static func writeBodyFile(_ bytes: [UInt8], to file: URL) throws(WireMockError) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw WireMockError(status: 500, pointer: nil, title: "Cannot write the body file", detail: "\(file.path): \(error.localizedDescription)")
        }
        do throws(CassetteError) {
            try AtomicFile.write(bytes, to: file)
        } catch {
            throw WireMockError(status: 500, pointer: nil, title: "Cannot write the body file", detail: error.description)
        }
    }

    private func confinedBodyFile(_ segments: [String], in folder: URL) throws(WireMockError) -> URL {
        do throws(FolderConfinement.Escape) {
            return try FolderConfinement(root: folder).resolve(segments.joined(separator: "/"))
        } catch {
            throw WireMockError(status: 400, pointer: nil, title: "Invalid body file name", detail: "a file inside __files: \(error)")
        }
    }

    // MARK: Mappings

    private func mappings(_ method: String, _ rest: [String], query: String, request: ServerRequest) throws(WireMockError) -> Response {
        switch (method, rest.first) {
        case ("GET", nil):
            return listMappings(query)
        case ("POST", nil):
            let mapping = try WireMockMapping.decode(request.body, source: "POST /__admin/mappings", reading: wireMock.reading)
            try wireMock.add(mapping)
            return .adminJSON(mapping.json, status: 201)
        case ("DELETE", nil):
            try wireMock.removeAll()
            return .adminJSON(.object([]))
        case ("POST", "reset") where rest.count == 1:
            // WireMock's resetToDefault: the root directory's mappings as they are now, and an empty journal.
            try wireMock.resetToDefaults()
            journal.clear()
            return .adminDone
        case ("POST", "save") where rest.count == 1:
            try wireMock.save()
            return .adminDone
        case ("POST", "remove-by-metadata") where rest.count == 1:
            let pattern = try WireMockMetadataPattern(request.body)
            try wireMock.remove(where: pattern.matches)
            return .adminJSON(.object([]))
        case ("POST", "find-by-metadata") where rest.count == 1:
            let pattern = try WireMockMetadataPattern(request.body)
            let found = wireMock.all.filter { pattern.matches($0.metadata) }
            return .adminJSON(.object(["mappings": .array(found.map(\.json)), "meta": .object(["total": .integer(found.count)])]))
        case ("POST", "new") where rest.count == 1:
            // WireMock 2.x's create, kept for old clients; WireMock answers it with no body.
            let mapping = try WireMockMapping.decode(request.body, source: "POST /__admin/mappings/new", reading: wireMock.reading)
            try wireMock.add(mapping)
            return Response(status: 201)
        case ("POST", "edit") where rest.count == 1:
            // The mapping names its id; WireMock answers 204 whether or not it held one.
            let mapping = try WireMockMapping.decode(request.body, source: "POST /__admin/mappings/edit", reading: wireMock.reading)
            _ = try wireMock.replace(mapping)
            return Response(status: 204)
        case ("POST", "remove") where rest.count == 1:
            let mapping = try WireMockMapping.decode(request.body, source: "POST /__admin/mappings/remove", reading: wireMock.reading)
            // The mapping the id names goes; when it names none (or there is no id), every mapping whose
            // request pattern equals the body's (its response aside) goes, as the 2.35.1 jar does.
            if try !wireMock.remove(mapping.id), let pattern = mapping.json[member: "request"] {
                try wireMock.remove(withRequest: pattern)
            }
            return .adminDone
        case ("POST", "import") where rest.count == 1:
            return try importMappings(request.body)
        case ("GET", "unmatched") where rest.count == 1 && version == .v2, ("DELETE", "unmatched") where rest.count == 1 && version == .v2:
            // The 2.35.1 jar reads `unmatched` as a mapping id and fails on it: a 500, as there.
            throw WireMockError(status: 500, pointer: nil, title: "Invalid UUID string: unmatched", detail: "WireMock 2.35 has no mappings/unmatched")
        case ("GET", "unmatched") where rest.count == 1 && version == .v3:
            let unmatched = unmatchedMappings()
            return .adminJSON(.object(["mappings": .array(unmatched.map(\.json)), "meta": .object(["total": .integer(unmatched.count)])]))
        case ("DELETE", "unmatched") where rest.count == 1 && version == .v3:
            for mapping in unmatchedMappings() { _ = try wireMock.remove(mapping.id) }
            return .adminJSON(.object([]))
        case (_, let id?) where rest.count == 1:
            guard let uuid = UUID(uuidString: id) else {
                throw WireMockError(status: 400, pointer: nil, title: "Invalid id", detail: "\(id.debugDescription) is not a UUID")
            }
            let key = uuid.uuidString.lowercased()
            switch method {
            case "GET":
                guard let mapping = wireMock.mapping(key) else { return Response(status: 404) }
                return .adminJSON(mapping.json)
            case "PUT":
                let mapping = try WireMockMapping.decode(
                    request.body, source: "PUT /__admin/mappings/\(key)", id: key, reading: wireMock.reading)
                guard try wireMock.replace(mapping) else { return Response(status: 404) }
                return .adminJSON(mapping.json)
            case "DELETE":
                guard try wireMock.remove(key) else { return Response(status: 404) }
                return .adminJSON(.object([]))
            default:
                return notFound(method, "mappings/\(id)")
            }
        default:
            return notFound(method, (["mappings"] + rest).joined(separator: "/"))
        }
    }

    /// The mappings no request in the journal was answered by (WireMock 3's `mappings/unmatched`), in
    /// listing order.
    private func unmatchedMappings() -> [WireMockMapping] {
        var served: Set<String> = []
        for entry in journal.entries where entry.source.kind == .mapping { served.insert(entry.source.detail) }
        return wireMock.all.filter { !served.contains($0.id) }
    }

    /// `GET version` (WireMock 3): `{"version": …}`, or the version alone as text when the client
    /// accepts `text/plain`. It names the WireMock version whose API Tonearm answers.
    private static func version(accept: String?) -> Response {
        if accept?.contains("text/plain") == true {
            return Response(status: 200, headers: [HeaderField("Content-Type", "text/plain")], body: Array(wireMock3Version.utf8))
        }
        return .adminJSON(.object(["version": .string(wireMock3Version)]))
    }

    /// `POST mappings/import`: `{"mappings": [...], "importOptions": {"duplicatePolicy", "deleteAllNotInImport"}}`.
    /// Every mapping is decoded before any is added, so a refused one changes nothing.
    private func importMappings(_ body: [UInt8]) throws(WireMockError) -> Response {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .invalid(nil, "Error parsing JSON", detail: "POST /__admin/mappings/import: \(error)")
        }
        guard case .array(let list)? = json[member: "mappings"] else {
            throw .invalid("/mappings", "Error parsing JSON", detail: "expected {\"mappings\": [...]}")
        }
        var mappings: [WireMockMapping] = []
        for (index, element) in list.enumerated() {
            do throws(WireMockError) {
                mappings.append(try WireMockMapping.decode(
                    element.bytes, source: "POST /__admin/mappings/import mappings[\(index)]", reading: wireMock.reading))
            } catch {
                // The mapping's pointer within the import's document, as WireMock reports it.
                var located = error
                located.pointer = located.pointer.map { "/mappings/\(index)" + $0 }
                throw located
            }
        }
        let options = json[member: "importOptions"]
        let ignoreDuplicates = options?[member: "duplicatePolicy"]?.stringValue == "IGNORE"
        if options?[member: "deleteAllNotInImport"] == .bool(true) {
            let kept = Set(mappings.map(\.id))
            for mapping in wireMock.all where !kept.contains(mapping.id) { _ = try wireMock.remove(mapping.id) }
        }
        // Added last to first, as the 2.35.1 jar does: the list keeps its order in listings, and the first
        // of two mappings for one request answers it (and, on a repeated id, the first one stays). In one
        // batch: their rules are indexed once.
        try wireMock.add(contentsOf: mappings.reversed(), ignoringDuplicates: ignoreDuplicates)
        return .adminDone
    }

    private func listMappings(_ query: String) -> Response {
        let parameters = WireMockAdmin.parameters(query)
        let all = wireMock.all
        let offset = max(0, parameters["offset"].flatMap(Int.init) ?? 0)
        let limit = parameters["limit"].flatMap(Int.init).map { max(0, $0) } ?? all.count
        let page = all.dropFirst(offset).prefix(limit)
        return .adminJSON(.object([
            "mappings": .array(page.map(\.json)),
            "meta": .object(["total": .integer(all.count)]),
        ]))
    }

    // MARK: The journal

    private var serveEvents: WireMockServeEvents {
        WireMockServeEvents(idPrefix: wireMock.eventIDPrefix, baseURL: address.url, logsFormParameters: version == .v3)
    }

    private func serveEvent(_ entry: JournalEntry) -> JSONValue {
        let mapping = entry.source.kind == .mapping ? wireMock.mapping(entry.source.detail) : nil
        return serveEvents.serveEvent(entry, mapping: mapping)
    }

    private func requests(_ method: String, _ rest: [String], query: String, request: ServerRequest) throws(WireMockError) -> Response {
        switch (method, rest.first) {
        case ("GET", nil):
            let parameters = WireMockAdmin.parameters(query)
            var entries = Array(journal.entries.reversed())
            if parameters["unmatched"] == "true" { entries.removeAll { $0.source.kind != .miss } }
            if let stub = parameters["matchingStub"] {
                guard let uuid = UUID(uuidString: stub) else {
                    // WireMock's code, title and (absent) source, which its clients show.
                    throw WireMockError(
                        status: 400, code: 15, pointer: nil, title: "Query parameter matchingStub value '\(stub)' is not a valid UUID", detail: "")
                }
                let id = uuid.uuidString.lowercased()
                entries.removeAll { $0.source.kind != .mapping || $0.source.detail != id }
            }
            // As in WireMock, meta.total counts the events the filters above keep, before since and limit
            // page through them: a client paging with since reads how many there are in all.
            let total = entries.count
            if let text = parameters["since"] {
                guard let since = Self.parseDate(text) else {
                    throw WireMockError(status: 400, pointer: "since", title: "\(text) is not a valid ISO8601 date", detail: "")
                }
                entries.removeAll { $0.time <= since }
            }
            if let limit = parameters["limit"].flatMap(Int.init) { entries = Array(entries.prefix(max(0, limit))) }
            return .adminJSON(.object([
                "requests": .array(entries.map(serveEvent)),
                "meta": .object(["total": .integer(total)]),
                "requestJournalDisabled": .bool(false),
            ]))
        case ("DELETE", nil):
            journal.clear()
            return .adminJSON(.object([]))
        case ("POST", "reset") where rest.count == 1:
            journal.clear()
            return .adminDone
        case ("POST", "count") where rest.count == 1:
            let pattern = try WireMockRequestPattern(request.body, source: "POST /__admin/requests/count", bodyFiles: wireMock.bodyFiles)
            let count = journal.entries.count(where: { pattern.matches(Self.wireMockRequest($0)) })
            return .adminJSON(.object(["count": .integer(count), "requestJournalDisabled": .bool(false)]))
        case ("POST", "find") where rest.count == 1:
            let pattern = try WireMockRequestPattern(request.body, source: "POST /__admin/requests/find", bodyFiles: wireMock.bodyFiles)
            let found = journal.entries.filter { pattern.matches(Self.wireMockRequest($0)) }
            return loggedRequests(found)
        case ("POST", "remove") where rest.count == 1:
            let pattern = try WireMockRequestPattern(request.body, source: "POST /__admin/requests/remove", bodyFiles: wireMock.bodyFiles)
            return removedServeEvents(journal.remove { pattern.matches(Self.wireMockRequest($0)) })
        case ("POST", "remove-by-metadata") where rest.count == 1:
            let pattern = try WireMockMetadataPattern(request.body)
            let matchingIDs = Set(wireMock.all.filter { pattern.matches($0.metadata) }.map(\.id))
            return removedServeEvents(journal.remove { $0.source.kind == .mapping && matchingIDs.contains($0.source.detail) })
        case ("DELETE", let id?) where rest.count == 1:
            guard UUID(uuidString: id) != nil else {
                throw WireMockError(status: 400, pointer: nil, title: "Invalid id", detail: "\(id.debugDescription) is not a UUID")
            }
            if let sequence = serveEvents.sequence(of: id) { _ = journal.remove { $0.sequence == sequence } }
            return .adminJSON(.object([]))
        case ("GET", "unmatched") where rest.count == 1:
            return loggedRequests(journal.entries.filter { $0.source.kind == .miss })
        case ("GET", "unmatched") where rest.count == 2 && rest[1] == "near-misses":
            return unmatchedNearMisses()
        case ("GET", let id?) where rest.count == 1:
            guard UUID(uuidString: id) != nil else {
                throw WireMockError(status: 400, pointer: nil, title: "Invalid id", detail: "\(id.debugDescription) is not a UUID")
            }
            guard let sequence = serveEvents.sequence(of: id), let entry = journal.entries.first(where: { $0.sequence == sequence }) else {
                return Response(status: 404)
            }
            return .adminJSON(serveEvent(entry))
        default:
            return notFound(method, (["requests"] + rest).joined(separator: "/"))
        }
    }

    /// `{"serveEvents": [...]}`, newest first, as WireMock answers a removal from the journal.
    private func removedServeEvents(_ removed: [JournalEntry]) -> Response {
        .adminJSON(.object(["serveEvents": .array(removed.reversed().map(serveEvent))]))
    }

    private func loggedRequests(_ entries: [JournalEntry]) -> Response {
        let events = serveEvents
        return .adminJSON(.object([
            "requests": .array(entries.map { events.loggedRequest($0.request, time: $0.time, clientAddress: $0.clientAddress) }),
            "requestJournalDisabled": .bool(false),
        ]))
    }

    /// A journaled request as WireMock patterns see it: the path and query the client sent, no host,
    /// and the client's address for `clientIp`.
    static func wireMockRequest(_ entry: JournalEntry) -> Request {
        var copy = entry.request.withClientAddress(entry.peer)
        copy.url = WireMockServeEvents.urls(entry.request.url, baseURL: "").0
        return copy
    }

    private static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    // MARK: Near misses

    private func unmatchedNearMisses() -> Response {
        let events = serveEvents
        var result: [JSONValue] = []
        for miss in journal.misses {
            for (id, distance) in WireMockNearMiss.mappings(closestTo: miss.report) {
                guard let mapping = wireMock.mapping(id) else { continue }
                result.append(.object([
                    "request": events.loggedRequest(miss.request, time: miss.time, clientAddress: miss.clientAddress),
                    "stubMapping": mapping.json,
                    "matchResult": WireMockNearMiss.matchResult(distance),
                ]))
            }
        }
        return .adminJSON(.object(["nearMisses": .array(result)]))
    }

    private func nearMisses(_ kind: String, request: ServerRequest) throws(WireMockError) -> Response {
        let events = serveEvents
        switch kind {
        case "request":
            let logged = try Self.loggedRequest(from: request.body)
            var result: [JSONValue] = []
            // The live engine, asked without moving a scenario: O(1) in the number of mappings.
            switch wireMock.engine.peek(logged) {
            case .hit(let hit):
                if let mapping = wireMock.mapping(wireMock.mappingID(for: hit)) {
                    result.append(.object([
                        "request": events.loggedRequest(logged, time: Date()), "stubMapping": mapping.json,
                        "matchResult": WireMockNearMiss.matchResult(0),
                    ]))
                }
            case .miss(let report):
                for (id, distance) in WireMockNearMiss.mappings(closestTo: report) {
                    guard let mapping = wireMock.mapping(id) else { continue }
                    result.append(.object([
                        "request": events.loggedRequest(logged, time: Date()), "stubMapping": mapping.json,
                        "matchResult": WireMockNearMiss.matchResult(distance),
                    ]))
                }
            }
            return .adminJSON(.object(["nearMisses": .array(result)]))
        case "request-pattern":
            let pattern = try WireMockRequestPattern(
                request.body, source: "POST /__admin/near-misses/request-pattern", bodyFiles: wireMock.bodyFiles)
            let ranked = journal.entries.reversed().compactMap { entry -> (JournalEntry, Double)? in
                guard let distance = pattern.distance(to: Self.wireMockRequest(entry)), distance > 0 else { return nil }
                return (entry, distance)
            }
            .sorted { $0.1 < $1.1 }
            .prefix(WireMockNearMiss.limit)
            return .adminJSON(.object(["nearMisses": .array(ranked.map { entry, distance in
                .object([
                    "request": events.loggedRequest(entry.request, time: entry.time, clientAddress: entry.clientAddress), "requestPattern": pattern.json,
                    "matchResult": WireMockNearMiss.matchResult(distance),
                ])
            })]))
        default:
            return notFound("POST", "near-misses/\(kind)")
        }
    }

    /// A request from a `LoggedRequest` document (`url`, `method`, `headers`, `body` or `bodyAsBase64`).
    static func loggedRequest(from body: [UInt8]) throws(WireMockError) -> Request {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .invalid(nil, "Error parsing JSON", detail: "POST /__admin/near-misses/request: \(error)")
        }
        guard let url = json[member: "url"]?.stringValue else {
            throw .invalid("/url", "Invalid request", detail: "a logged request needs a \"url\" string")
        }
        var headers: [HeaderField] = []
        if case .object(let members)? = json[member: "headers"] {
            for member in members {
                switch member.value {
                case .string(let value): headers.append(HeaderField(member.key, value))
                case .array(let values): headers += values.compactMap(\.stringValue).map { HeaderField(member.key, $0) }
                default: break
                }
            }
        }
        var bytes = Array((json[member: "body"]?.stringValue ?? "").utf8)
        if let base64 = json[member: "bodyAsBase64"]?.stringValue, let data = Data(base64Encoded: base64) { bytes = Array(data) }
        return Request(method: json[member: "method"]?.stringValue ?? "GET", url: url, headers: headers, body: bytes)
    }

    // MARK: Scenarios, settings, health

    private func scenarios(_ method: String, _ rest: [String], request: ServerRequest) throws(WireMockError) -> Response {
        switch (method, rest.count) {
        case ("GET", 0):
            return .adminJSON(.object(["scenarios": .array(wireMock.scenarios.map(\.json))]))
        case ("POST", 1) where rest[0] == "reset":
            wireMock.resetScenarios()
            return .adminJSON(.object([]))
        case ("PUT", 2) where rest[1] == "state":
            let name = rest[0].removingPercentEncoding ?? rest[0]
            // An empty body resets the scenario, as WireMock's Java client sends it (resetScenario).
            let body: JSONValue
            do {
                body = request.body.isEmpty ? .object([]) : try JSONValue(parsing: request.body)
            } catch {
                throw .invalid(nil, "Error parsing JSON", detail: "PUT /__admin/scenarios/\(rest[0])/state: \(error)")
            }
            // WireMock reads the state as text (a number too); a body without one is refused, as the jar
            // refuses `null`.
            let state: String? = switch body[member: "state"] {
            case .string(let text)?: text
            case .number(let text)?: text
            case .bool(let value)?: String(value)
            default: nil
            }
            try wireMock.setScenarioState(name, to: state, resetting: request.body.isEmpty)
            return .adminJSON(.object([]))
        default:
            return notFound(method, (["scenarios"] + rest).joined(separator: "/"))
        }
    }

    private var settingsJSON: JSONValue {
        wireMock.globalSettings.json
    }

    private func updateSettings(_ request: ServerRequest) throws(WireMockError) -> Response {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: request.body)
        } catch {
            throw .invalid(nil, "Error parsing JSON", detail: "\(request.method) /__admin/settings: \(error)")
        }
        guard case .object(let members) = json else { throw .invalid("", "Error parsing JSON", detail: "expected a settings object") }
        // WireMock's Java client wraps them: {"settings": {...}} is accepted as well as the bare object.
        let settings = json[member: "settings"].flatMap { if case .object(let inner) = $0 { inner } else { nil } } ?? members
        wireMock.globalSettings = try WireMockGlobalSettings(members: settings)
        return .adminJSON(settingsJSON)
    }

    private func health(now: Date) -> JSONValue {
        .object([
            "status": .string("healthy"),
            "message": .string("Tonearm is ok"),
            "version": .string("tonearm"),
            "uptimeInSeconds": .integer(Int(wireMock.started.duration(to: .now).components.seconds)),
            "timestamp": .string(now.formatted(.iso8601)),
        ])
    }

    private static func html(_ page: String) -> Response {
        Response(status: 200, headers: [HeaderField("Content-Type", "text/html; charset=utf-8")], body: Array(page.utf8))
    }

    func notFound(_ method: String, _ path: String) -> Response {
        .adminError(WireMockError(
            status: 404, pointer: nil, title: "Not found",
            detail: "Tonearm does not answer \(method) /__admin/\(path) (see docs/server.md, \"Coming from WireMock\")"))
    }
}
