import Foundation
import Testing
import TonearmCassettes
import TonearmTestSupport

/// One recording of `GET https://shop.example.com/items/3` answering `{"price": PRICE, "name": "lamp"}`,
/// in each format Tonearm reads, written so that two recordings differ in the price and in what a
/// re-recording changes anyway (the `Date` header, recording times, member order).
struct DiffFormatFixture: Sendable, CustomTestStringConvertible {
    /// The format's name, as `--from` takes it.
    let format: String
    /// Writes the recording with `price` into `folder`, `recordedLater` choosing the second recording's
    /// date and member order; returns the file (or folder) to load.
    let write: @Sendable (_ folder: URL, _ price: String, _ recordedLater: Bool) throws -> URL

    var testDescription: String { format }

    static func date(_ recordedLater: Bool) -> String { recordedLater ? "Tue, 02 Jan 2024 10:00:00 GMT" : "Mon, 01 Jan 2024 09:00:00 GMT" }

    /// The body, its members in another order in the later recording.
    static func body(_ price: String, _ recordedLater: Bool) -> String {
        recordedLater ? #"{"name":"lamp","price":\#(price)}"# : #"{"price":\#(price),"name":"lamp"}"#
    }

    /// The body as a JSON string's content (its quotes escaped).
    static func escapedBody(_ price: String, _ recordedLater: Bool) -> String {
        body(price, recordedLater).replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// A fixture writing one file called `name`.
    static func file(_ format: String, _ name: String, _ content: @escaping @Sendable (_ price: String, _ recordedLater: Bool) -> String) -> DiffFormatFixture {
        DiffFormatFixture(format: format) { folder, price, recordedLater in
            let url = folder.appendingPathComponent(name)
            try Data(content(price, recordedLater).utf8).write(to: url)
            return url
        }
    }

    static let all: [DiffFormatFixture] = [
        file("native", "shop.json") { price, later in
            """
            {"formatVersion": 1, "tracks": [{"recordedAt": "\(later ? "2024-01-02T10:00:00.000Z" : "2024-01-01T09:00:00.000Z")",
              "request": {"method": "GET", "url": "https://shop.example.com/items/3"},
              "response": {"status": 200, "headers": [["Content-Type", "application/json"], ["Date", "\(date(later))"]],
                           "body": {"json": \(body(price, later))}}}]}
            """
        },
        file("har", "shop.har") { price, later in
            """
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
              "startedDateTime": "\(later ? "2024-01-02T10:00:00.000Z" : "2024-01-01T09:00:00.000Z")", "time": \(later ? 31 : 12),
              "request": {"method": "GET", "url": "https://shop.example.com/items/3", "httpVersion": "HTTP/1.1", "headers": [],
                          "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
              "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                           "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Date", "value": "\(date(later))"}],
                           "cookies": [], "content": {"size": 30, "mimeType": "application/json", "text": "\(escapedBody(price, later))"},
                           "redirectURL": "", "headersSize": -1, "bodySize": 30},
              "cache": {}, "timings": {"send": 0, "wait": \(later ? 31 : 12), "receive": 0}}]}}
            """
        },
        file("vcr", "shop.yml") { price, later in
            """
            ---
            http_interactions:
            - request:
                method: get
                uri: https://shop.example.com/items/3
                body:
                  encoding: UTF-8
                  string: ''
                headers: {}
              response:
                status:
                  code: 200
                  message: OK
                headers:
                  Content-Type:
                  - application/json
                  Date:
                  - \(date(later))
                body:
                  encoding: UTF-8
                  string: '\(body(price, later))'
              recorded_at: \(date(later))
            recorded_with: VCR 6.2.0

            """
        },
        file("vcr", "shop-vcrpy.yaml") { price, later in
            """
            interactions:
            - request:
                body: null
                headers: {}
                method: GET
                uri: https://shop.example.com/items/3
              response:
                body: {string: '\(body(price, later))'}
                headers:
                  Content-Type: [application/json]
                  Date: ['\(date(later))']
                status: {code: 200, message: OK}
            version: 1

            """
        },
        file("govcr", "shop-govcr.yaml") { price, later in
            """
            ---
            version: 1
            interactions:
            - request:
                body: ""
                form: {}
                headers: {}
                url: https://shop.example.com/items/3
                method: GET
              response:
                body: '\(body(price, later))'
                headers:
                  Content-Type:
                  - application/json
                  Date:
                  - \(date(later))
                status: 200 OK
                code: 200
                duration: "\(later ? "31ms" : "12ms")"

            """
        },
        file("dvr", "shop-dvr.json") { price, later in
            """
            {"name": "shop", "interactions": [{"recorded_at": \(later ? 1_704_189_600.5 : 1_704_099_600.25),
              "request": {"method": "GET", "url": "https://shop.example.com/items/3"},
              "response": {"status": 200, "url": "https://shop.example.com/items/3",
                           "headers": {"Content-Type": "application/json", "Date": "\(date(later))"}, "body": \(body(price, later))}}]}
            """
        },
        file("vinyl", "shop-vinyl.json") { price, later in
            """
            [{"request": {"url": "https://shop.example.com/items/3", "method": "GET"},
              "response": {"url": "https://shop.example.com/items/3", "status": 200,
                           "headers": {"Content-Type": "application/json", "Date": "\(date(later))"}, "body": \(body(price, later))}}]
            """
        },
        file("wiremock", "shop-wiremock.json") { price, later in
            """
            {"mappings": [{"request": {"method": "GET", "url": "/items/3"},
              "response": {"status": 200, "jsonBody": \(body(price, later)), "headers": {"Content-Type": "application/json", "Date": "\(date(later))"}}}]}
            """
        },
        DiffFormatFixture(format: "wiremock (root folder)") { folder, price, later in
            let root = folder.appendingPathComponent("wiremock")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("__files"), withIntermediateDirectories: true)
            try Data(body(price, later).utf8).write(to: root.appendingPathComponent("__files/item.json"))
            try Data("""
                {"request": {"method": "GET", "urlPath": "/items/3"},
                 "response": {"status": 200, "bodyFileName": "item.json", "headers": {"Content-Type": "application/json", "Date": "\(date(later))"}}}
                """.utf8).write(to: root.appendingPathComponent("mappings/item.json"))
            return root
        },
        file("wiremocknet", "shop-wiremocknet.json") { price, later in
            """
            [{"Guid": "\(later ? "22222222-0000-0000-0000-000000000002" : "11111111-0000-0000-0000-000000000001")",
              "Request": {"Path": "/items/3", "Methods": ["GET"]},
              "Response": {"StatusCode": 200, "BodyAsJson": \(body(price, later)), "Headers": {"Content-Type": "application/json", "Date": "\(date(later))"}}}]
            """
        },
        file("hoverfly", "shop-hoverfly.json") { price, later in
            """
            {"data": {"pairs": [{
              "request": {"path": [{"matcher": "exact", "value": "/items/3"}], "method": [{"matcher": "exact", "value": "GET"}],
                          "destination": [{"matcher": "exact", "value": "shop.example.com"}], "scheme": [{"matcher": "exact", "value": "https"}],
                          "body": [{"matcher": "exact", "value": ""}]},
              "response": {"status": 200, "body": "\(escapedBody(price, later))", "encodedBody": false,
                           "headers": {"Content-Type": ["application/json"], "Date": ["\(date(later))"]}, "templated": false}}],
              "globalActions": {"delays": []}},
             "meta": {"schemaVersion": "v5.2", "hoverflyVersion": "v1.5.3", "timeExported": "\(later ? "2024-01-02T10:00:00Z" : "2024-01-01T09:00:00Z")"}}
            """
        },
        DiffFormatFixture(format: "bundle") { folder, price, later in
            let bundle = folder.appendingPathComponent("shop.bundle")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try Data(body(price, later).utf8).write(to: bundle.appendingPathComponent("item.json"))
            let rules: [[String: Any]] = [["matching_url": #"^https://shop\.example\.com/items/3$"#, "json_file": "item", "http_method": "GET"]]
            try PropertyListSerialization.data(fromPropertyList: rules, format: .xml, options: 0).write(to: bundle.appendingPathComponent("stubsRules.plist"))
            return bundle
        },
        file("rules", "shop.rules.yaml") { price, later in
            """
            rules:
              - name: item
                method: GET
                url: '^https://shop\\.example\\.com/items/3$'
                headers: {Content-Type: application/json, Date: '\(date(later))'}
                body: '\(body(price, later))'

            """
        },
        DiffFormatFixture(format: "stubs") { folder, price, later in
            let stubs = folder.appendingPathComponent("stubs/buys-a-lamp")
            try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
            try Data("""
                {"formatVersion": 1, "recordedAt": "\(later ? "2024-01-02T10:00:00.000Z" : "2024-01-01T09:00:00.000Z")",
                 "request": {"method": "GET", "url": "https://shop.example.com/items/3"},
                 "response": {"status": 200, "headers": [["Content-Type", "application/json"], ["Date", "\(date(later))"]],
                              "body": {"json": \(body(price, later))}}}
                """.utf8).write(to: stubs.appendingPathComponent("001-GET-items-3.json"))
            return stubs.deletingLastPathComponent()
        },
        DiffFormatFixture(format: "stubs (body-only files)") { folder, price, later in
            let stubs = folder.appendingPathComponent("bodies")
            try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
            try Data(body(price, later).utf8).write(to: stubs.appendingPathComponent("GET-items-3.json"))
            return stubs
        },
    ]
}
