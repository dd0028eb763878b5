import Foundation

extension TemporaryFolder {
    /// A WireMock root folder `wm` as WireMock's standalone server lays one out: `mappings/` with an
    /// exact mapping (in a subfolder) whose body is `__files/user.json` (`{"id":42}`), a pattern mapping
    /// for `/search/…` answering 204, and a stray `README.md` beside them.
    public func makeWireMockRoot() throws -> URL {
        try FileManager.default.createDirectory(at: file("wm/mappings/users"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: file("wm/__files"), withIntermediateDirectories: true)
        try write("wm/mappings/users/get-user.json", """
            {"request": {"method": "GET", "url": "/users/42"}, "response": {"status": 200, "bodyFileName": "user.json"}}
            """)
        try write("wm/mappings/search.json", """
            {"mappings": [{"request": {"method": "GET", "urlPathPattern": "/search/.*"}, "response": {"status": 204}}]}
            """)
        try write("wm/__files/user.json", #"{"id":42}"#)
        try write("wm/README.md", "stubs for the user service\n")
        return file("wm")
    }

    /// A WireMock root folder at `root` with one mapping, `GET /static/hello.txt`, answering the body file
    /// `__files/hello.txt` ("from __files\n"): what the WireMock Python client tests expect.
    public static func makeHelloWireMockRoot(at root: URL) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("__files"), withIntermediateDirectories: true)
        try Data(#"{"request":{"method":"GET","url":"/static/hello.txt"},"response":{"status":200,"bodyFileName":"hello.txt"}}"#.utf8)
            .write(to: root.appendingPathComponent("mappings/static.json"))
        try Data("from __files\n".utf8).write(to: root.appendingPathComponent("__files/hello.txt"))
    }

    /// A WireMock root folder `wm-plugin` written as a Jenkins plugin's test folder writes one:
    /// `basicAuth` (`u`/`p`) on `GET /secure`, a multipart pattern with a `name` on `POST /upload`
    /// (201), and `{"mappings": [...]}` holding `/ping` with no `response` (a 200). `tonearm serve
    /// --root-dir` and `tonearm lint` both load it.
    public func makePluginStyleWireMockRoot() throws -> URL {
        try FileManager.default.createDirectory(at: file("wm-plugin/mappings"), withIntermediateDirectories: true)
        try write("wm-plugin/mappings/auth.json", """
            {"request": {"method": "GET", "url": "/secure", "basicAuth": {"username": "u", "password": "p"}}, "response": {"status": 200, "body": "ok"}}
            """)
        try write("wm-plugin/mappings/upload.json", """
            {"request": {"method": "POST", "urlPath": "/upload", "multipartPatterns": [{"name": "file", "headers": {"Content-Disposition": {"contains": "name=\\"file\\""}}}]}, "response": {"status": 201}}
            """)
        try write("wm-plugin/mappings/ping.json", #"{"mappings": [{"request": {"url": "/ping"}}]}"#)
        return file("wm-plugin")
    }
}

