import Testing
import TonearmWorkloads
@testable import TonearmServer

@Suite("Server: request routing")
struct RoutingTests {
    let api = UpstreamHost("api.example.com")!
    let local = UpstreamHost("http://127.0.0.1:9000")!

    private func route(_ target: String, method: String = "GET", upstream: UpstreamHost? = nil, replayOnly: Bool = false) -> RequestRoute {
        RequestRoute.resolve(method: method, target: target, allowed: [api, local], upstream: upstream, replayOnly: replayOnly)
    }

    @Test("--host values: https by default, or the scheme and port given")
    func hosts() {
        #expect(api.origin == "https://api.example.com")
        #expect(local.origin == "http://127.0.0.1:9000")
        #expect(local.authority == "127.0.0.1:9000")
        #expect(UpstreamHost("ftp://x.com") == nil)
        #expect(UpstreamHost("https://x.com/path") == nil)
    }

    @Test("The first path component names the host; the rest of the target follows it")
    func hostInPath() {
        #expect(route("/api.example.com/v1/x?q=1") == .upstream(url: "https://api.example.com/v1/x?q=1", host: api))
        #expect(route("/API.example.com") == .upstream(url: "https://api.example.com/", host: api))
        #expect(route("/api.example.com?q") == .upstream(url: "https://api.example.com/?q", host: api))
        #expect(route("/127.0.0.1:9000/health") == .upstream(url: "http://127.0.0.1:9000/health", host: local))
    }

    @Test("The first component split on bytes equals the character walk for any target: case, ?, empty parts, non-ASCII (property)")
    func firstComponentOnBytesEqualsTheCharacterWalk() {
        var random = SeededRandom(seed: 0x5011_7)
        let pieces = ["/", "?", "a", "Z", "api.Example.COM", ":8080", "%2F", "é", "\u{301}", "x", ".", "~", "&q=1", ""]
        for _ in 0..<5_000 {
            let target = "/" + (0..<Int.random(in: 0..<8, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            let bytes = RequestRoute.firstComponent(of: target)
            let walked = RequestRoute.graphemeFirstComponent(of: target)
            #expect(bytes.component == walked.component && bytes.rest == walked.rest, "\(target.debugDescription)")
        }
    }

    @Test("Other hosts are refused in network modes and matched against the cassette in replay mode")
    func otherHosts() {
        guard case .refused(403, let message) = route("/evil.com/x") else { Issue.record("not refused"); return }
        #expect(message.contains("evil.com"))
        #expect(route("/evil.com/x", replayOnly: true) == .upstream(url: "https://evil.com/x", host: nil))
        guard case .refused(403, _) = route("http://evil.com/x") else { Issue.record("proxy target not refused"); return }
    }

    @Test("Absolute-form targets are forward-proxied to allowed hosts; CONNECT to an allowed http host is a plain tunnel; to an https host it is refused unless intercepting")
    func proxy() {
        #expect(route("http://127.0.0.1:9000/x") == .upstream(url: "http://127.0.0.1:9000/x", host: local))
        // A client's ws:// (or http://) through a proxy that always tunnels: no TLS, no certificate.
        #expect(route("127.0.0.1:9000", method: "CONNECT") == .tunnel(host: local))
        guard case .refused(405, _) = route("api.example.com:443", method: "CONNECT") else { Issue.record("CONNECT not refused"); return }
        guard case .refused(405, _) = route("127.0.0.1:9001", method: "CONNECT") else { Issue.record("CONNECT to another port tunnelled"); return }
    }

    @Test("Intercepting, CONNECT to an allowed https host opens a tunnel (port 443 left out of its origin), to an http host a plain one; other hosts and targets that are not host:port are refused")
    func connectIntercepted() {
        let secureLocal = UpstreamHost("https://127.0.0.1:9443")!
        let allowed = [api, local, secureLocal]
        func connect(_ target: String, replayOnly: Bool = false, replayHosts: [UpstreamHost] = []) -> RequestRoute {
            RequestRoute.resolve(
                method: "CONNECT", target: target, allowed: allowed, upstream: nil, replayOnly: replayOnly, replayHosts: replayHosts,
                intercepting: true)
        }
        #expect(connect("api.example.com:443") == .tunnel(host: api))
        #expect(connect("127.0.0.1:9443") == .tunnel(host: secureLocal))
        guard case .refused(403, let message) = connect("other.example.com:443") else { Issue.record("other host not refused"); return }
        #expect(message.contains("https://other.example.com is not an allowed host"))
        // --host http://127.0.0.1:9000 allows plain http there: its tunnel is plain, never TLS.
        #expect(connect("127.0.0.1:9000") == .tunnel(host: local))
        guard case .refused(400, _) = connect("api.example.com") else { Issue.record("target without port accepted"); return }
        let recorded = UpstreamHost("https://recorded.example.com")!
        #expect(connect("recorded.example.com:443", replayOnly: true, replayHosts: [recorded]) == .tunnel(host: recorded))
        guard case .refused(403, let replayMessage) = connect("unrecorded.example.com:443", replayOnly: true, replayHosts: [recorded])
        else { Issue.record("unrecorded host tunnelled in replay"); return }
        #expect(replayMessage.contains("has no recordings in this cassette"))
    }

    @Test("Without a host component: the single upstream, else a local request; the control prefix is reserved")
    func originForm() {
        #expect(route("/v1/users", upstream: api) == .upstream(url: "https://api.example.com/v1/users", host: api))
        #expect(route("/v1/users") == .local(target: "/v1/users"))
        #expect(route("/__tonearm/health") == .control(path: "health", query: ""))
        #expect(route("/__tonearm/journal?limit=3") == .control(path: "journal", query: "limit=3"))
    }
}
