import Testing
import Tonearm

/// ``PathTemplate``: WireMock 3's path templates, read as its `PathTemplate` reads them.
@Suite("Path templates")
struct PathTemplateTests {
    private static func values(_ template: String, _ path: String) -> [String]? {
        PathTemplate(template).parameters(in: path)?.map { "\($0.name)=\($0.value)" }
    }

    @Test("variables take one segment or part of one; wildcards any text; literals must match exactly")
    func readsValues() {
        #expect(Self.values("/things/{id}", "/things/11-22-33") == ["id=11-22-33"])
        #expect(Self.values("/things/{id}", "/things/stuff/11-22-33") == nil)
        #expect(Self.values("/things/{id}/otherthings/{subId}", "/things/11-22-33/otherthings") == nil)
        #expect(Self.values("/things/{id}", "/things/") == nil)
        #expect(Self.values("/things/{id}/", "/things/1") == nil)
        #expect(Self.values("/things/**", "/things/foo/bar") == ["0=foo/bar"])
        #expect(Self.values("/things/**", "/things/") == ["0="])
        #expect(Self.values("/things/{id}/**", "/things/foo/bar") == ["id=foo", "0=bar"])
        #expect(Self.values("/one/{.first}/two/{;second*}", "/one/.3,4,5/two/;second=1;second=2") == ["first=.3,4,5", "second=;second=1;second=2"])
        #expect(Self.values("/f/{name}.{ext}", "/f/a.b.c") == ["name=a.b", "ext=c"])
        #expect(Self.values("/**/{id}", "/a/b/c") == ["0=a/b", "id=c"])
        #expect(Self.values("/x/{}/{y", "/x/{}/{y") == [])
        #expect(Self.values("/plain", "/plain") == [])
    }

    @Test("names, with format characters dropped and wildcards numbered")
    func names() {
        #expect(PathTemplate("/things/{id}/otherthings/{subId}").parameterNames == ["id", "subId"])
        #expect(PathTemplate("/things/**/{id}/**").parameterNames == ["0", "id", "1"])
        #expect(PathTemplate("/one/{.first}/two/{;second*}").parameterNames == ["first", "second"])
    }

    @Test("a long path with many wildcards is read in one pass")
    func longPath() {
        let path = "/" + String(repeating: "a/", count: 20_000) + "end"
        #expect(PathTemplate("/**/**/**/{last}").parameters(in: path)?.last?.value == "end")
        #expect(PathTemplate("/**/**/**/{last}/x").parameters(in: path) == nil)
    }
}
