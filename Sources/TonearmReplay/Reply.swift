import Foundation
import Tonearm

/// What a stub answers with: a response (JSON, text, data, a file, a bare status) or a simulated
/// transport error, optionally after a delay.
///
/// ```swift
/// .json(#"{"name":"Ada"}"#)
/// .text("pending", status: 202)
/// .status(204)
/// .failure(.timedOut)
/// .json(#"{"ok":true}"#).delayed(by: .milliseconds(200))
/// ```
public struct Reply: Sendable {
    enum Body: Sendable {
        case bytes([UInt8])
        case file(URL)
        case encoded(@Sendable () throws -> [UInt8])
    }

    enum Kind: Sendable {
        case response(status: Int, headers: [HeaderField], body: Body)
        case failure(TransportError)
    }

    let kind: Kind
    /// How long to wait before answering.
    public var delay: Duration?

    /// A JSON response whose body is `json`, verbatim, with `Content-Type: application/json`.
    public static func json(
        _ json: String, status: Int = 200, headers: KeyValuePairs<String, String> = [:]
    ) -> Reply {
        response(status, contentType: "application/json", headers, .bytes(Array(json.utf8)))
    }

    /// A JSON response encoding `value` with `JSONEncoder` (sorted keys, so the bytes are stable).
    public static func json(
        encoding value: some Encodable & Sendable, status: Int = 200, headers: KeyValuePairs<String, String> = [:]
    ) -> Reply {
        response(status, contentType: "application/json", headers, .encoded {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return Array(try encoder.encode(value))
        })
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(
        _ text: String, status: Int = 200, headers: KeyValuePairs<String, String> = [:]
    ) -> Reply {
        response(status, contentType: "text/plain; charset=utf-8", headers, .bytes(Array(text.utf8)))
    }

    /// A response with raw bytes and, when given, a content type.
    public static func data(
        _ data: Data, status: Int = 200, contentType: String? = nil, headers: KeyValuePairs<String, String> = [:]
    ) -> Reply {
        response(status, contentType: contentType, headers, .bytes(Array(data)))
    }

    /// A response whose body is read from `file` when the stubs are compiled (a missing file fails
    /// then, naming the stub), with a content type from the extension unless given.
    public static func file(
        _ file: URL, status: Int = 200, contentType: String? = nil, headers: KeyValuePairs<String, String> = [:]
    ) -> Reply {
        response(status, contentType: contentType ?? Self.contentType(forExtension: file.pathExtension), headers, .file(file))
    }

    /// An empty response with `status`, e.g. `.status(204)` or `.status(404)`.
    public static func status(_ status: Int, headers: KeyValuePairs<String, String> = [:]) -> Reply {
        response(status, contentType: nil, headers, .bytes([]))
    }

    /// A simulated transport error, delivered as the matching `URLError`.
    public static func failure(_ error: TransportError) -> Reply {
        Reply(kind: .failure(error), delay: nil)
    }

    /// The same reply after `delay`; cancelling the request ends the wait.
    public func delayed(by delay: Duration) -> Reply {
        var copy = self
        copy.delay = delay
        return copy
    }

    private static func response(
        _ status: Int, contentType: String?, _ headers: KeyValuePairs<String, String>, _ body: Body
    ) -> Reply {
        var fields = headers.map { HeaderField($0.key, $0.value) }
        if let contentType, fields.first(named: "Content-Type") == nil {
            fields.insert(HeaderField("Content-Type", contentType), at: 0)
        }
        return Reply(kind: .response(status: status, headers: fields, body: body), delay: nil)
    }

    private static func contentType(forExtension pathExtension: String) -> String? {
        switch pathExtension.lowercased() {
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "html", "htm": "text/html; charset=utf-8"
        case "xml": "application/xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        default: nil
        }
    }

    /// The outcome this reply produces; `stub` names it in errors.
    func outcome(for stub: String) throws(TonearmError) -> Track.Outcome {
        switch kind {
        case .failure(let error):
            return .transportError(error)
        case .response(let status, let headers, let body):
            let bytes: [UInt8]
            switch body {
            case .bytes(let value):
                bytes = value
            case .file(let url):
                guard let data = FileManager.default.contents(atPath: url.path) else {
                    throw .stubBody(stub: stub, reason: "cannot read the response file \(url.path)")
                }
                bytes = Array(data)
            case .encoded(let encode):
                do {
                    bytes = try encode()
                } catch {
                    throw .stubBody(stub: stub, reason: "the JSON value does not encode: \(error)")
                }
            }
            return .response(Response(status: status, headers: headers, body: bytes))
        }
    }
}
