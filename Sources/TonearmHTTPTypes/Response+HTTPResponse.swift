import HTTPTypes
import Tonearm

extension Response {
    /// `response` with `body`, as Tonearm records and replays it.
    public init(_ response: HTTPResponse, body: [UInt8] = []) {
        self.init(status: response.status.code, headers: [HeaderField](response.headerFields), body: body)
    }
}

extension HTTPResponse {
    /// The head of `response` (its body travels separately in swift-http-types).
    ///
    /// - Throws: ``HTTPTypesConversionError/invalidStatus(_:)`` for a status outside 100...999 (which
    ///   `HTTPResponse.Status` would trap on), ``HTTPTypesConversionError/invalidHeaderName(_:)`` for a
    ///   header name that is not an HTTP token.
    public init(_ response: Response) throws(HTTPTypesConversionError) {
        guard (100...999).contains(response.status) else { throw .invalidStatus(response.status) }
        self.init(status: HTTPResponse.Status(code: response.status), headerFields: try HTTPFields(response.headers))
    }
}
