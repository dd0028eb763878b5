import NameClashSupport
import Testing
import Tonearm

/// Users import Tonearm beside other HTTP libraries; its names must stay reachable when theirs collide.
@Suite struct NameClashTests {
    @Test func tonearmRequestResolvesWhenAnotherModuleAlsoExportsARequest() {
        let request = Tonearm.Request(url: "https://api.example.com/users", headers: [HeaderField("Accept", "application/json")])
        let engine = ReplayEngine(tracks: [Track(request: request, response: Response(status: 204))])
        #expect(engine.match(request).hit?.track.response?.status == 204)
        #expect(NameClashSupport.Request(path: "/users").path == "/users")
    }

    @Test func headerFieldNeverCollidesWithSwiftHTTPTypesHTTPField() {
        // Unqualified, `HTTPField` is the other module's and `HeaderField` is Tonearm's.
        let theirs = HTTPField(name: "Accept", value: "text/html")
        let ours = [HeaderField(theirs.name, theirs.value)]
        #expect(ours.first(named: "accept") == "text/html")
    }
}
