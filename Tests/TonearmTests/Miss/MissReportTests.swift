import Testing
import TonearmWorkloads
@testable import Tonearm

@Suite("Miss reports")
struct MissReportTests {
    @Test("a changed query parameter is named, with recorded and received values")
    func queryParameterDifference() throws {
        let engine = ReplayEngine(tracks: [
            Fixtures.track(Fixtures.get("https://api.example.com/users?page=1&sort=name"), status: 200, name: "page one"),
            Fixtures.track(Fixtures.get("https://api.example.com/orders"), status: 200),
        ])
        let report = try #require(engine.match(Fixtures.get("https://api.example.com/users?sort=name&page=2")).missReport)
        #expect(report.reason == .notRecorded)
        let closest = try #require(report.nearest.first)
        #expect(closest.position == 0)
        #expect(closest.differences == [.queryParameter(name: "page", recorded: ["1"], received: ["2"])])
        #expect(report.description.contains(#"query parameter "page": recorded "1", received "2""#))
        #expect(report.description.contains("\"page one\""))
    }

    @Test("a miss reports the request's canonical form and key, under every built-in strategy")
    func missCarriesCanonicalFormAndKey() throws {
        // The engine asks built-in strategies by key alone and canonicalises only on a miss: the report
        // must still carry exactly what the canonicalizer makes, for a GET and for a JSON body.
        let requests = [
            Fixtures.get("https://API.example.com/a/./b?z=1&a=%7e"),
            Fixtures.postJSON("https://api.example.com/signup", #"{"b":1, "a":[true,null]}"#),
            Fixtures.postJSON("https://api.example.com/signup", #"{"b":1,"#),
        ]
        for strategy in [Strategy.repeat, .uniquePlay, .fifo(), .strictOrder] {
            let engine = ReplayEngine(tracks: [Fixtures.track(Fixtures.get("https://h.example/"), status: 200)], strategy: strategy)
            for request in requests {
                let report = try #require(engine.match(request).missReport)
                let canonical = engine.canonicalizer.canonicalize(request)
                #expect(report.canonical == canonical)
                #expect(report.key == RequestKey(canonicalBytes: canonical.bytes))
                #expect(report.key == engine.canonicalizer.key(for: request))
            }
        }
    }

    @Test("added and removed parameters are told apart")
    func addedAndRemovedParameters() throws {
        let engine = ReplayEngine(tracks: [Fixtures.track(Fixtures.get("https://h.example/a?keep=1&old=x"), status: 200)])
        let report = try #require(engine.match(Fixtures.get("https://h.example/a?keep=1&new=y")).missReport)
        #expect(report.nearest.first?.differences == [
            .queryParameter(name: "new", recorded: [], received: ["y"]),
            .queryParameter(name: "old", recorded: ["x"], received: []),
        ])
    }

    @Test("method and path differences are named; an id change finds the route's tracks")
    func methodAndPath() throws {
        let engine = ReplayEngine(tracks: [
            Fixtures.track(Fixtures.get("https://api.example.com/users/42"), status: 200),
            Fixtures.track(Fixtures.get("https://other.example.com/x"), status: 200),
        ])
        let report = try #require(engine.match(Fixtures.get("https://api.example.com/users/43")).missReport)
        #expect(report.nearest.first?.differences == [.path(recorded: "/users/42", received: "/users/43")])
        var delete = Fixtures.get("https://api.example.com/users/42")
        delete.method = "DELETE"
        let methodReport = try #require(engine.match(delete).missReport)
        #expect(methodReport.nearest.first?.differences == [.method(recorded: "GET", received: "DELETE")])
    }

    @Test("JSON bodies differ by path: /user/email")
    func jsonBodyPath() throws {
        let recorded = Fixtures.postJSON("https://api.example.com/signup", #"{"user":{"name":"Ann","email":"ann@example.com"}}"#)
        let engine = ReplayEngine(tracks: [Fixtures.track(recorded, status: 201)])
        let live = Fixtures.postJSON("https://api.example.com/signup", #"{"user":{"email":"bob@example.com","name":"Ann"}}"#)
        let report = try #require(engine.match(live).missReport)
        let differences = try #require(report.nearest.first?.differences)
        #expect(differences.count == 1)
        let difference = try #require(differences.first?.jsonDifference, "expected a JSON body difference, got \(differences)")
        #expect(differences.first?.identifier == "jsonBody")
        #expect(difference.pointer == "/user/email")
        #expect(report.description.contains("/user/email"))
    }

    @Test("header differences appear only for headers in the key")
    func headerDifference() throws {
        let configuration = MatchingConfiguration(attributes: [.method, .url, .header("Accept")])
        let engine = ReplayEngine(
            tracks: [Fixtures.track(Fixtures.get("https://h.example/a", headers: [HeaderField("Accept", "text/html"), HeaderField("X-Trace", "1")]), status: 200)],
            configuration: configuration)
        let live = Fixtures.get("https://h.example/a", headers: [HeaderField("accept", "application/json"), HeaderField("X-Trace", "2")])
        let report = try #require(engine.match(live).missReport)
        #expect(report.nearest.first?.differences == [.header(name: "accept", recorded: ["text/html"], received: ["application/json"])])
    }

    @Test("an exhausted key reports its own track with no differences")
    func exhaustedShowsSameKey() throws {
        let request = Fixtures.get("https://h.example/once")
        let engine = ReplayEngine(tracks: [Fixtures.track(request, status: 200)], strategy: .uniquePlay)
        _ = engine.match(request)
        let report = try #require(engine.match(request).missReport)
        #expect(report.nearest.first?.differences == [])
        #expect(report.description.contains("same key"))
    }

    /// The bound does not depend on the number of tracks, so 2,000 show it as well as more would (as long
    /// as some misses have more candidates than the bound, checked below); what a miss costs at 10k and
    /// 100k tracks is measured by the `miss` rows of Benchmarks/MatchBenchmarks.
    @Test("at most three closest tracks, closest first, from a bounded shortlist")
    func boundedShortlist() throws {
        let workload = Workload(trackCount: 2_000, seed: 7)
        let engine = ReplayEngine(tracks: workload.tracks)
        let misses = workload.stream(count: 50, mix: .missesOnly, seed: 8)
        var reachedBound = 0
        for item in misses {
            let report = try #require(engine.match(item.request).missReport)
            #expect(report.nearest.count <= 3)
            #expect(report.candidatesCompared <= NearMissFinder.candidateLimit)
            if report.candidatesCompared == NearMissFinder.candidateLimit { reachedBound += 1 }
            let distances = report.nearest.map(\.distance)
            #expect(distances == distances.sorted())
        }
        #expect(reachedBound > 0, "no miss had more candidates than the bound, so the test shows nothing")
    }

    @Test("a request to a host nobody recorded says so")
    func unknownHost() throws {
        let engine = ReplayEngine(tracks: [Fixtures.track(Fixtures.get("https://h.example/a"), status: 200)])
        let report = try #require(engine.match(Fixtures.get("https://elsewhere.example/zzz")).missReport)
        #expect(report.nearest.isEmpty)
        #expect(report.description.contains("no recorded track shares this request's host"))
    }
}
