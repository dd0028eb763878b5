import Testing
import Tonearm
@testable import TonearmServer

@Suite("Server: who may use the control and admin APIs")
struct ControlPlaneGuardTests {
    let loopback = ControlPlaneGuard(port: 8080, bindAddress: "127.0.0.1", token: nil)

    private func request(
        _ method: String = "GET", _ target: String = "/__tonearm/health", host: String? = "127.0.0.1:8080",
        _ headers: [(String, String)] = [], body: String = ""
    ) -> ServerRequest {
        ServerRequest(
            method: method, target: target,
            headers: (host.map { [HeaderField("Host", $0)] } ?? []) + headers.map { HeaderField($0.0, $0.1) },
            body: Array(body.utf8))
    }

    private func request(headers: [(String, String)]) -> ServerRequest {
        request("GET", "/__tonearm/health", headers)
    }

    @Test("covers the control API and an installed extension's (WireMock's admin API) only: the one router says which requests are the control plane's")
    func covers() {
        func covered(_ target: String) -> Bool {
            RequestRoute.resolve(method: "GET", target: target, allowed: [], upstream: nil, replayOnly: true, extensionPrefix: "/__admin")
                .isControlPlane
        }
        #expect(covered("/__tonearm/stubs"))
        #expect(covered("/__tonearm"))
        #expect(covered("/__tonearm?x=1"))
        #expect(covered("/__admin/mappings"))
        #expect(covered("/__admin"))
        #expect(!covered("/__tonearmx"))
        #expect(!covered("/__adminx"))
        #expect(!covered("/api.example.com/__admin/mappings"))
        #expect(!covered("/v1/users"))
        #expect(RequestRoute.resolve(
            method: "GET", target: "/__admin/mappings/?limit=2", allowed: [], upstream: nil, replayOnly: true, extensionPrefix: "/__admin")
            == .extensionAPI(path: "mappings", query: "limit=2"))
        // Without an extension, `/__admin` is a path like any other.
        #expect(!RequestRoute.resolve(method: "GET", target: "/__admin/mappings", allowed: [], upstream: nil, replayOnly: true).isControlPlane)
    }

    @Test("the server's own loopback names with its port pass; a missing Host (HTTP/1.0 tools) passes")
    func ownHosts() {
        for host in ["127.0.0.1:8080", "localhost:8080", "LocalHost:8080", "[::1]:8080", " 127.0.0.1:8080 "] {
            #expect(loopback.refusal(for: request(host: host)) == nil, "\(host)")
        }
        #expect(loopback.refusal(for: request(host: nil)) == nil)
    }

    @Test("another name, another port, a rebound name or two Host headers are refused with 403 naming the own names")
    func foreignHosts() throws {
        for host in ["attacker.example:8080", "127.0.0.1:9090", "127.0.0.1", "localhost", "127.0.0.1:8080:1", "[::1", "[::1]x", "127.0.0.2:8080", ""] {
            let refusal = try #require(loopback.refusal(for: request(host: host)), "\(host)")
            #expect(refusal.status == 403)
            #expect(refusal.message.contains("DNS rebinding"))
            #expect(refusal.message.contains("localhost:8080, 127.0.0.1:8080, [::1]:8080"))
        }
        let twice = request(host: "127.0.0.1:8080", [("Host", "attacker.example:8080")])
        #expect(loopback.refusal(for: twice)?.status == 403)
        let port80 = ControlPlaneGuard(port: 80, bindAddress: "127.0.0.1", token: nil)
        #expect(port80.refusal(for: request(host: "localhost")) == nil, "the port may be left out when it is 80")
    }

    @Test("a server bound elsewhere also answers to its bind address; a wildcard bind to any name")
    func boundElsewhere() {
        let lan = ControlPlaneGuard(port: 8080, bindAddress: "192.168.1.5", token: "t")
        #expect(lan.refusal(for: request(host: "192.168.1.5:8080", [("Authorization", "Bearer t")])) == nil)
        #expect(lan.refusal(for: request(host: "attacker.example:8080", [("Authorization", "Bearer t")]))?.status == 403)
        let ipv6 = ControlPlaneGuard(port: 8080, bindAddress: "fd00::5", token: "t")
        #expect(ipv6.refusal(for: request(host: "[fd00::5]:8080", [("Authorization", "Bearer t")])) == nil)
        let everywhere = ControlPlaneGuard(port: 8080, bindAddress: "0.0.0.0", token: "t")
        #expect(everywhere.refusal(for: request(host: "build-box.lan:8080", [("Authorization", "Bearer t")])) == nil)
        #expect(everywhere.refusal(for: request(host: "build-box.lan:8080"))?.status == 401)
    }

    @Test("an Origin other than the server's own, including null and https, is refused")
    func origins() throws {
        #expect(loopback.refusal(for: request("POST", "/__tonearm/reset", [("Origin", "http://127.0.0.1:8080")])) == nil)
        #expect(loopback.refusal(for: request(host: "localhost:8080", [("Origin", "http://localhost:8080")])) == nil)
        for origin in ["http://attacker.example", "null", "https://127.0.0.1:8080", "http://127.0.0.1:3000", "http://localhost:8080"] {
            let refusal = try #require(loopback.refusal(for: request("POST", "/__tonearm/reset", [("Origin", origin)])), "\(origin)")
            #expect(refusal.status == 403)
            #expect(refusal.message.contains("Origin"))
        }
        #expect(loopback.refusal(for: request(host: nil, [("Origin", "http://127.0.0.1:8080")]))?.status == 403)
    }

    @Test("Sec-Fetch-Site other than same-origin or none is refused")
    func fetchSite() {
        #expect(loopback.refusal(for: request(headers: [("Sec-Fetch-Site", "same-origin")])) == nil)
        #expect(loopback.refusal(for: request(headers: [("Sec-Fetch-Site", "none")])) == nil)
        #expect(loopback.refusal(for: request(headers: [("Sec-Fetch-Site", "cross-site")]))?.status == 403)
        #expect(loopback.refusal(for: request(headers: [("Sec-Fetch-Site", "Same-Site")]))?.status == 403)
        #expect(loopback.refusal(for: request(headers: [("Sec-Fetch-Site", "cross-site")]))?.message.contains("another site") == true)
    }

    @Test("state changes need JSON (or YAML for stubs); bodiless ones without a Content-Type pass")
    func contentTypes() throws {
        let json = #"{"path": null}"#
        #expect(loopback.refusal(for: request("POST", "/__tonearm/cassette", [("Content-Type", "application/json")], body: json)) == nil)
        #expect(loopback.refusal(for: request("POST", "/__admin/mappings", [("Content-Type", "Application/JSON; charset=utf-8")], body: json)) == nil)
        #expect(loopback.refusal(for: request("PUT", "/__admin/mappings/x", [("Content-Type", "application/vnd.api+json")], body: json)) == nil)
        #expect(loopback.refusal(for: request("POST", "/__tonearm/stubs", [("Content-Type", "application/yaml")], body: "- path: x")) == nil)
        #expect(loopback.refusal(for: request("POST", "/__tonearm/stubs", [("Content-Type", "text/yaml")], body: "- path: x")) == nil)
        #expect(loopback.refusal(for: request("POST", "/__admin/mappings", [("Content-Type", "application/yaml")], body: "a: b"))?.status == 403)
        for type in ["text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
            let refusal = try #require(loopback.refusal(for: request("POST", "/__tonearm/stubs", [("Content-Type", type)], body: json)), "\(type)")
            #expect(refusal.status == 403)
            #expect(refusal.message.contains("Content-Type: application/json or a YAML type"))
            #expect(refusal.message.contains("--json"))
        }
        let noType = try #require(loopback.refusal(for: request("POST", "/__admin/mappings", body: json)))
        #expect(noType.message.contains("no Content-Type"))
        #expect(loopback.refusal(for: request("POST", "/__admin/reset")) == nil)
        #expect(loopback.refusal(for: request("POST", "/__tonearm/save")) == nil)
        #expect(loopback.refusal(for: request("DELETE", "/__tonearm/journal")) == nil)
        #expect(loopback.refusal(for: request("POST", "/__admin/reset", [("Content-Type", "text/plain")]))?.status == 403, "a browser form with no fields")
        #expect(loopback.refusal(for: request("GET", "/__admin/mappings", [("Content-Type", "text/plain")])) == nil)
        // What no browser sends: a non-browser User-Agent, no Origin, no Sec-Fetch-Site (WireMock's Java
        // client posts its JSON as text/plain). A browser's User-Agent, or either header, is held to JSON.
        let javaClient = [("Content-Type", "text/plain; charset=UTF-8"), ("User-Agent", "Apache-HttpClient/4.5.13 (Java/17.0.9)")]
        #expect(loopback.refusal(for: request("POST", "/__admin/mappings", javaClient, body: json)) == nil)
        #expect(loopback.refusal(for: request("POST", "/__admin/mappings", javaClient + [("Sec-Fetch-Site", "same-origin")], body: json))?.status == 403)
        #expect(loopback.refusal(for: request("POST", "/__admin/mappings", javaClient + [("Origin", "http://127.0.0.1:8080")], body: json))?.status == 403)
        let oldBrowser = [("Content-Type", "text/plain"), ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:68.0) Gecko/20100101 Firefox/68.0")]
        #expect(loopback.refusal(for: request("POST", "/__admin/mappings", oldBrowser, body: json))?.status == 403, "a browser that leaves Origin out")
    }

    @Test("with a token, only Authorization: Bearer TOKEN passes (401 otherwise)")
    func token() throws {
        let guarded = ControlPlaneGuard(port: 8080, bindAddress: "127.0.0.1", token: "s3cret")
        #expect(guarded.refusal(for: request(headers: [("Authorization", "Bearer s3cret")])) == nil)
        #expect(guarded.refusal(for: request(headers: [("Authorization", "bearer  s3cret")])) == nil)
        let missing = try #require(guarded.refusal(for: request()))
        #expect(missing.status == 401)
        #expect(missing.message.contains("--admin-token"))
        #expect(missing.headers.contains(HeaderField("WWW-Authenticate", "Bearer")))
        for value in ["Bearer s3cre", "Bearer s3cretx", "Basic s3cret", "s3cret", "Bearer", "Bearer S3CRET"] {
            #expect(guarded.refusal(for: request(headers: [("Authorization", value)]))?.status == 401, "\(value)")
        }
        let twice = request(headers: [("Authorization", "Bearer s3cret"), ("Authorization", "Bearer other")])
        #expect(guarded.refusal(for: twice)?.status == 401)
        #expect(ControlPlaneGuard.authorizes(["Bearer é"], token: "é"))
    }
}
