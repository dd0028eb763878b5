import ArgumentParser
import Tonearm

/// Reads a request given as a JSON document, with Tonearm's own parser so big integers and member
/// order in a JSON body survive exactly.
enum RequestDocument {
    static func decode(_ bytes: [UInt8]) throws -> Request {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw ValidationError("standard input is not a JSON request document: \(error)")
        }
        guard case .object(let members) = document else {
            throw ValidationError("standard input must be a JSON object with \"method\", \"url\", \"headers\" and \"body\"")
        }
        func member(_ name: String) -> JSONValue? { members.first { $0.key == name }?.value }
        guard case .string(let url)? = member("url") else {
            throw ValidationError("the request document needs a string \"url\"")
        }
        var method = "GET"
        if case .string(let value)? = member("method") { method = value }
        return Request(method: method, url: url, headers: try headers(member("headers")), body: body(member("body")))
    }

    private static func headers(_ value: JSONValue?) throws -> [HTTPField] {
        switch value {
        case nil, .null?:
            return []
        case .object(let members)?:
            return try members.map { member in
                guard case .string(let text) = member.value else {
                    throw ValidationError("header \"\(member.key)\" must have a string value")
                }
                return HTTPField(member.key, text)
            }
        case .array(let pairs)?:
            return try pairs.map { pair in
                guard case .array(let items) = pair, items.count == 2, case .string(let name) = items[0],
                    case .string(let text) = items[1]
                else { throw ValidationError("\"headers\" list entries must be [name, value] string pairs") }
                return HTTPField(name, text)
            }
        default:
            throw ValidationError("\"headers\" must be an object or a list of [name, value] pairs")
        }
    }

    private static func body(_ value: JSONValue?) -> [UInt8] {
        switch value {
        case nil, .null?: []
        case .string(let text)?: Array(text.utf8)
        case let other?: Array(other.canonicalText.utf8)
        }
    }
}
