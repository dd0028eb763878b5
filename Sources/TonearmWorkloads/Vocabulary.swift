/// The building blocks of generated traffic: hosts, route templates, parameter names, JSON keys.
struct Vocabulary {
    let shape: WorkloadShape
    let origins: [String]

    static let routes = [
        "/v1/users/{id}", "/v1/users/{id}/orders", "/v2/orders/{id}", "/catalog/items/{id}",
        "/api/v3/accounts/{id}/transactions", "/files/{id}/content", "/v1/sessions/{id}", "/feed/{id}",
    ]
    /// Endpoints that many requests share, told apart only by their bodies (search, GraphQL).
    private static let sharedEndpoints = ["/search", "/graphql", "/v1/events"]
    private static let parameterNames = [
        "page", "per_page", "sort", "filter", "lang", "include", "fields", "q", "cursor", "since", "tag", "region",
    ]
    private static let keys = [
        "id", "name", "email", "status", "items", "price", "currency", "tags", "meta", "createdAt", "owner",
        "address", "city", "zip", "quantity", "note", "préférence", "größe", "enabled", "score",
    ]

    init(shape: WorkloadShape) {
        self.shape = shape
        origins = (0..<max(shape.hostCount, 1)).map { number in
            switch number % 10 {
            case 0: "http://svc\(number).internal.example"
            case 1: "https://api\(number).example.com:8443"
            default: "https://api\(number).example.com"
            }
        }
    }

    mutating func blueprint(number: Int, random: inout SeededRandom) -> Blueprint {
        let origin = origins[Int.random(in: 0..<origins.count, using: &random)]
        let bodyDraw = Double.random(in: 0..<1, using: &random)
        var body = Blueprint.Body.none
        var method = "GET"
        var path: String
        if bodyDraw < shape.jsonBodyShare {
            method = Bool.random(using: &random) ? "POST" : "PUT"
            let large = Double.random(in: 0..<1, using: &random) < shape.largeJSONShare
            let target = large ? Int.random(in: 4_096...65_536, using: &random) : Int.random(in: 40...2_048, using: &random)
            body = .json(document(number: number, targetSize: target, random: &random))
        } else if bodyDraw < shape.jsonBodyShare + shape.formBodyShare {
            method = "POST"
            body = .form([("id", "\(number)"), ("name", word(&random)), ("note", "hello+world"), ("lang", "en")])
        } else if bodyDraw < shape.jsonBodyShare + shape.formBodyShare + shape.binaryBodyShare {
            method = "PUT"
            var bytes = (0..<Int.random(in: 16...1_024, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            withUnsafeBytes(of: UInt64(number).littleEndian) { bytes.append(contentsOf: $0) }
            body = .binary(bytes)
        }
        if method != "GET", Int.random(in: 0..<10, using: &random) < 3, case .json = body {
            path = Self.sharedEndpoints[Int.random(in: 0..<Self.sharedEndpoints.count, using: &random)]
        } else {
            let route = Self.routes[Int.random(in: 0..<Self.routes.count, using: &random)]
            path = route.replacingID(with: "\(1_000 + number)")
        }
        let parameterCount = Int.random(in: 0...shape.maxQueryParameters, using: &random)
        let query = Self.parameterNames.shuffled(using: &random).prefix(parameterCount).map { name in
            (name, value(&random))
        }
        return Blueprint(method: method, origin: origin, path: path, query: Array(query), body: body)
    }

    /// A JSON object of about `targetSize` bytes whose `id` makes it unique.
    func document(number: Int, targetSize: Int, random: inout SeededRandom) -> GeneratedJSON {
        var members: [(String, GeneratedJSON)] = [("id", .number("\(number)"))]
        var size = 12
        while size < targetSize {
            let key = Self.keys[Int.random(in: 0..<Self.keys.count, using: &random)] + "\(members.count)"
            let value = jsonValue(depth: 0, random: &random)
            size += key.utf8.count + value.text().utf8.count + 4
            members.append((key, value))
        }
        return .object(members)
    }

    private func jsonValue(depth: Int, random: inout SeededRandom) -> GeneratedJSON {
        switch Int.random(in: 0..<(depth < 3 ? 9 : 6), using: &random) {
        case 0: return .number("\(Int.random(in: -1_000_000...1_000_000, using: &random))")
        case 1: return .number("\(Double(Int.random(in: 0...99_999, using: &random)) / 100)")
        case 2, 3: return .string(word(&random) + " " + word(&random))
        case 4: return .bool(Bool.random(using: &random))
        case 5: return .null
        case 6, 7:
            let count = Int.random(in: 0...4, using: &random)
            return .object((0..<count).map { offset in
                (Self.keys[Int.random(in: 0..<Self.keys.count, using: &random)] + "_\(offset)",
                 jsonValue(depth: depth + 1, random: &random))
            })
        default:
            return .array((0..<Int.random(in: 0...5, using: &random)).map { _ in jsonValue(depth: depth + 1, random: &random) })
        }
    }

    func word(_ random: inout SeededRandom) -> String {
        // Bytes, not Characters: generating 100,000 tracks calls this millions of times.
        let length = Int.random(in: 3...9, using: &random)
        return String(unsafeUninitializedCapacity: length) { buffer in
            for offset in 0..<length { buffer[offset] = 0x61 + UInt8(Int.random(in: 0..<26, using: &random)) }
            return length
        }
    }

    func value(_ random: inout SeededRandom) -> String {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: "\(Int.random(in: 1...500, using: &random))"
        case 1: word(&random)
        case 2: word(&random) + "%20" + word(&random)
        default: "caf%C3%A9-" + word(&random)
        }
    }
}

extension String {
    func replacingID(with id: String) -> String {
        split(separator: "/", omittingEmptySubsequences: false)
            .map { $0 == "{id}" ? id : String($0) }
            .joined(separator: "/")
    }
}
