import NameClashSupport
import Testing
import Tonearm

/// Users import Tonearm beside other HTTP libraries; its names must stay reachable when theirs collide.
@Suite struct NameClashTests {
    @Test func tonearmRequestResolvesWhenAnotherModuleAlsoExportsARequest() {
        let request = Tonearm.Request(url: "https://api.example.com/users")
        let engine = ReplayEngine(tracks: [Track(request: request, response: Response(status: 204))])
        #expect(engine.match(request).hit?.track.response?.status == 204)
        #expect(NameClashSupport.Request(path: "/users").path == "/users")
    }
}
