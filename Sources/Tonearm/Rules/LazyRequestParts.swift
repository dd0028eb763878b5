/// The parts of a request that rule conditions read, each worked out at most once per request and only
/// when a rule asks: a rule set may try many rules with conditions on the same request.
struct LazyRequestParts {
    private let request: IncomingRequest
    private var parsedBody: JSONValue??
    private var verbatimBody: JSONValue??
    private var decodedQuery: [String: [String]]?
    private var decodedForm: [String: [String]]?
    private var parsedCookies: [RequestCookie]?
    private var splitParts: [MultipartPart]??

    init(_ request: IncomingRequest) {
        self.request = request
    }

    /// The body as JSON, or `nil` when it does not parse.
    var jsonBody: JSONValue? {
        mutating get {
            if let parsedBody { return parsedBody }
            let value = try? JSONValue(parsing: request.request.body)
            parsedBody = .some(value)
            return value
        }
    }

    /// The body as JSON with numbers as written (see ``JSONValue/init(parsingVerbatim:)``), or `nil`.
    var verbatimJSONBody: JSONValue? {
        mutating get {
            if let verbatimBody { return verbatimBody }
            let value = try? JSONValue(parsingVerbatim: request.request.body)
            verbatimBody = .some(value)
            return value
        }
    }

    /// The query's decoded values by decoded name, in the order sent.
    var queryValues: [String: [String]] {
        mutating get {
            if let decodedQuery { return decodedQuery }
            var values: [String: [String]] = [:]
            if var query = request.canonical.url.query {
                query.withUTF8 { utf8 in
                    for pair in FormEncoding.pairs(UnsafeRawBufferPointer(utf8)) {
                        values[pair.decodedName, default: []].append(pair.decodedValue)
                    }
                }
            }
            decodedQuery = values
            return values
        }
    }

    /// The decoded values of an `application/x-www-form-urlencoded` body by decoded name, in the order
    /// sent; none for a body of another type (WireMock 3 reads a form only when the `Content-Type`
    /// says so, as here).
    var formValues: [String: [String]] {
        mutating get {
            if let decodedForm { return decodedForm }
            var values: [String: [String]] = [:]
            let contentType = request.request.headers.first { $0.name.equalsIgnoringASCIICase("Content-Type") }?.value
            if let contentType, contentType.lowercased().contains("application/x-www-form-urlencoded") {
                request.request.body.withUnsafeBytes { bytes in
                    for pair in FormEncoding.pairs(bytes) {
                        values[pair.decodedName, default: []].append(pair.decodedValue)
                    }
                }
            }
            decodedForm = values
            return values
        }
    }

    /// The cookies of every `Cookie` header, in the order sent.
    var cookies: [RequestCookie] {
        mutating get {
            if let parsedCookies { return parsedCookies }
            var cookies: [RequestCookie] = []
            for header in request.request.headers where header.name.equalsIgnoringASCIICase("Cookie") {
                cookies.append(contentsOf: RequestCookie.parse(header.value))
            }
            parsedCookies = cookies
            return cookies
        }
    }

    /// The parts of a `multipart/*` body, or `nil` when the body is not multipart.
    var multipartParts: [MultipartPart]? {
        mutating get {
            if let splitParts { return splitParts }
            let contentType = request.request.headers.first { $0.name.equalsIgnoringASCIICase("Content-Type") }?.value
            let parts = MultipartBody.parts(contentType: contentType, body: request.request.body)
            splitParts = .some(parts)
            return parts
        }
    }
}
