import Testing

@testable import Tonearm

/// The one "is this body JSON / a form" rule (docs/key-spec.md §5), which matching and redaction share.
@Suite("Media types")
struct MediaTypeTests {
    @Test(
        "JSON is application/json or type/name+json, parameters and case ignored",
        arguments: [
            ("application/json", true), ("Application/JSON; charset=utf-8", true), (" application/json ;q=1", true),
            ("application/vnd.api+json", true), ("application/problem+json", true), ("text/x+JSON", true),
            ("foo+json", false),  // no "/": not a media type
            ("+json", false), ("application/+json", false), ("/x+json", false),  // empty name or type
            ("application/json-seq", false), ("application/jsonp", false), ("text/json", false),
            ("application/x+json/y", false), ("", false),
        ])
    func json(contentType: String, isJSON: Bool) {
        #expect(MediaType.isJSON(contentType) == isJSON)
        #expect((BodyKind.forContentType(contentType, additionalJSON: []) == .json) == isJSON)
    }

    @Test("a parameter is found by name in any case, unquoted; absent, or in the type itself, it is nil")
    func parameters() {
        #expect(MediaType.parameter("charset", in: "application/json; Charset=\"GB2312\"") == "GB2312")
        #expect(MediaType.parameter("charset", in: "text/plain;charset=iso-8859-1 ; q=1") == "iso-8859-1")
        #expect(MediaType.parameter("boundary", in: "multipart/form-data; charset=utf-8; boundary=zz") == "zz")
        #expect(MediaType.parameter("charset", in: "application/json") == nil)
        #expect(MediaType.parameter("charset", in: "charset=utf-8") == nil)
    }

    @Test("additional JSON types are compared after lowercasing and dropping parameters")
    func additional() {
        #expect(MediaType.isJSON("Text/JSON; charset=utf-8", additional: ["text/json"]))
        #expect(!MediaType.isJSON("text/json", additional: ["text/plain"]))
    }

    @Test("forms are application/x-www-form-urlencoded only")
    func form() {
        #expect(MediaType.isForm("application/x-www-form-urlencoded; charset=utf-8"))
        #expect(!MediaType.isForm("multipart/form-data; boundary=x"))
        #expect(BodyKind.forContentType("APPLICATION/X-WWW-FORM-URLENCODED", additionalJSON: []) == .form)
    }
}
