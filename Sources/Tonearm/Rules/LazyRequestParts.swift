/// The parts of a request that rule conditions read, each worked out at most once per request and only
/// when a rule asks: a rule set may try many rules with conditions on the same request.
struct LazyRequestParts {
    private let request: IncomingRequest
    private var parsedBody: JSONValue??
    private var decodedQuery: [String: [String]]?

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
}
