import Foundation
import Tonearm
import TonearmServer
import TonearmCassettes

/// WireMock's recorder API: `GET recordings/status`, `POST recordings/start` (a RecordSpec with
/// `targetBaseUrl`), `POST recordings/stop`, `POST recordings/snapshot`. Recording adds a mapping that
/// proxies every request to the target (WireMock's own mechanism, and Tonearm's one proxy path: never
/// an open proxy, only the target given); stopping removes it and turns the exchanges it proxied into
/// mappings, which answer at once and are written to the root directory when `persist` says so.
extension WireMockAdmin {
    func recordings(_ method: String, _ rest: [String], request: ServerRequest) throws(WireMockError) -> Response {
        switch (method, rest.first) {
        case ("GET", "status") where rest.count == 1:
            return .adminJSON(.object(["status": .string(recorder.status.rawValue)]))
        case ("POST", "start") where rest.count == 1:
            try startRecording(WireMockRecordSpec(request.body, bodyFiles: wireMock.bodyFiles))
            return .adminJSON(.object([]))
        case ("POST", "stop") where rest.count == 1:
            guard let recording = recorder.stop() else {
                throw WireMockError(status: 400, code: 30, pointer: nil, title: "Not currently recording.", detail: "POST /__admin/recordings/start first")
            }
            _ = try wireMock.remove(recording.proxyMappingID)
            let exchanges = try recordedExchanges(since: recording.firstSequence, spec: recording.spec, complete: true)
            return try addRecorded(exchanges, spec: recording.spec)
        case ("POST", "snapshot") where rest.count == 1:
            let spec = try WireMockRecordSpec(request.body, bodyFiles: wireMock.bodyFiles)
            return try addRecorded(try recordedExchanges(since: 0, spec: spec, complete: false), spec: spec)
        default:
            return notFound(method, (["recordings"] + rest).joined(separator: "/"))
        }
    }

    /// Adds the proxy mapping (`{"request": {"method": "ANY"}, "response": {"proxyBaseUrl": target}}`, as
    /// WireMock adds it) and notes where the journal stands. Starting while recording changes nothing.
    private func startRecording(_ spec: WireMockRecordSpec) throws(WireMockError) {
        guard let target = spec.targetBaseURL else {
            throw .invalid("/targetBaseUrl", "targetBaseUrl is required", detail: "the URL to record from, such as http://api.example.com")
        }
        _ = try recorder.start { () throws(WireMockError) in
            let proxy = JSONValue.object([
                "request": .object(["method": .string("ANY")]),
                "response": .object(["status": .integer(200), "proxyBaseUrl": .string(target)]),
            ])
            let mapping: WireMockMapping
            do throws(WireMockError) {
                mapping = try WireMockMapping.decode(proxy.bytes, source: "POST /__admin/recordings/start", reading: wireMock.reading)
            } catch {
                throw .invalid("/targetBaseUrl", "Invalid targetBaseUrl", detail: error.detail)
            }
            let firstSequence = journal.total
            try wireMock.add(mapping)
            return WireMockRecorder.Recording(spec: spec, proxyMappingID: mapping.id, firstSequence: firstSequence)
        }
    }

    /// The journal's exchanges from `firstSequence` on that the spec's filters let through: those a
    /// proxy mapping answered (any exchange with `allowNonProxied`), matching `filters`' request pattern
    /// and among its `ids`, leaving out those the upstream never answered. One whose body the journal cut
    /// short is refused rather than recorded wrong.
    private func recordedExchanges(
        since firstSequence: Int, spec: WireMockRecordSpec, complete: Bool
    ) throws(WireMockError) -> [WireMockRecordedExchange] {
        // A recording (`complete`) is all-or-nothing: exchanges the journal's caps dropped since it began
        // would be missing silently. A snapshot takes the journal as it is now.
        let dropped = journal.newestDroppedSequence
        if complete, dropped >= firstSequence {
            throw WireMockError(
                status: 422, pointer: nil, title: "Cannot record: exchanges were dropped",
                detail: "the journal dropped \(dropped - firstSequence + 1) exchanges since the recording started (it keeps \(journal.limit) exchanges and \(journal.maximumBytes) bytes); raise --journal-limit or --journal-max-bytes and record again")
        }
        var exchanges: [WireMockRecordedExchange] = []
        let events = serveEventIDs
        for entry in journal.entries where entry.sequence >= firstSequence {
            guard let response = entry.response, entry.source.kind != .miss else { continue }
            let proxied = entry.source.kind == .mapping
                && (recorder.isRecordingProxy(entry.source.detail) || wireMock.responseSettings(entry.source.detail)?.proxy != nil)
            guard proxied || spec.filters.allowNonProxied else { continue }
            // An upstream that could not be reached answered nothing to record: the server's 502 or 504
            // (marked Tonearm-Upstream-Error, as every upstream failure) would freeze an outage into a stub.
            if response.headers.first(named: "Tonearm-Upstream-Error") != nil { continue }
            if let ids = spec.filters.ids, !ids.contains(events.id(entry.sequence)) { continue }
            if let pattern = spec.filters.pattern, !pattern.matches(entry.request) { continue }
            if let truncation = entry.truncation {
                throw WireMockError(
                    status: 422, pointer: nil, title: "Cannot record a serve event",
                    detail: "serve event \(events.id(entry.sequence)) (\(entry.request.method) \(entry.request.url)): the journal keeps a proxied exchange's bodies up to \(journal.recordableBodyLimit) bytes (an eighth of --journal-max-bytes), and this exchange's \(truncation)")
            }
            exchanges.append(WireMockRecordedExchange(request: entry.request, response: response))
        }
        return exchanges
    }

    private var serveEventIDs: WireMockServeEvents {
        WireMockServeEvents(idPrefix: wireMock.eventIDPrefix, baseURL: address.url, logsFormParameters: version == .v3)
    }

    /// Makes mappings of `exchanges`, writes their extracted bodies to `__files`, reads each back with
    /// the one mapping reader and adds it (written to `mappings/<name>-<id>.json` when `persist`), and
    /// answers `{"mappings": [...]}` or `{"ids": [...]}`.
    private func addRecorded(_ exchanges: [WireMockRecordedExchange], spec: WireMockRecordSpec) throws(WireMockError) -> Response {
        let bodyFiles = wireMock.bodyFiles
        let generator = WireMockMappingGenerator(spec: spec, redaction: redaction, extractsBodies: bodyFiles != nil)
        let recorded = generator.mappings(for: exchanges)
        var added: [WireMockMapping] = []
        for item in recorded {
            if let body = item.bodyFile, let bodyFiles {
                try writeBodyFile(body, in: bodyFiles)
            }
            var mapping = try WireMockMapping.decode(item.json.bytes, source: "recorded mapping \(item.name)", reading: wireMock.reading)
            if spec.persist, let folder = wireMock.mappingsFolder {
                mapping.file = WireMockMapping.SavedFile(url: folder.appendingPathComponent("\(item.name)-\(item.id).json"), isShared: false)
            }
            try wireMock.add(mapping)
            added.append(mapping)
        }
        switch spec.outputFormat {
        case .full: return .adminJSON(.object(["mappings": .array(added.map(\.json))]))
        case .ids: return .adminJSON(.object(["ids": .array(added.map { .string($0.id) })]))
        }
    }

    private func writeBodyFile(_ body: WireMockRecordedMapping.BodyFile, in folder: URL) throws(WireMockError) {
        let file: URL
        do throws(FolderConfinement.Escape) {
            file = try FolderConfinement(root: folder).resolve(body.name)
        } catch {
            throw WireMockError(status: 500, pointer: nil, title: "Cannot write the body file", detail: "\(error)")
        }
        try Self.writeBodyFile(body.bytes, to: file)
    }
}
