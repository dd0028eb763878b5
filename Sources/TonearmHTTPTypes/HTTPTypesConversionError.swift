/// A Tonearm value that swift-http-types cannot represent, naming the part and the value.
///
/// Tonearm keeps requests and responses as they were recorded, so a cassette may hold a method, header
/// name or status code that `HTTPRequest`, `HTTPField.Name` or `HTTPResponse.Status` refuse. More checks
/// may come, so this is a struct with static members rather than an enum.
public struct HTTPTypesConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which part failed: `method`, `headerName`, `status` or `url`.
    public let part: String
    /// The value as Tonearm had it.
    public let value: String
    /// What swift-http-types expects there.
    public let expected: String

    /// The method is not an HTTP token.
    public static func invalidMethod(_ method: String) -> HTTPTypesConversionError {
        HTTPTypesConversionError(part: "method", value: method, expected: "an HTTP token such as GET")
    }

    /// The header name is not an HTTP token.
    public static func invalidHeaderName(_ name: String) -> HTTPTypesConversionError {
        HTTPTypesConversionError(part: "headerName", value: name, expected: "an HTTP token")
    }

    /// The status code is outside 100...999.
    public static func invalidStatus(_ status: Int) -> HTTPTypesConversionError {
        HTTPTypesConversionError(part: "status", value: String(status), expected: "a status code in 100...999")
    }

    /// The URL has no `scheme://authority` to split into pseudo-header fields.
    public static func invalidURL(_ url: String) -> HTTPTypesConversionError {
        HTTPTypesConversionError(part: "url", value: url, expected: "an absolute URL such as https://host/path")
    }

    /// `header name "bad name": expected an HTTP token`.
    public var description: String {
        "\(part) \(value.debugDescription) cannot be represented in swift-http-types: expected \(expected)"
    }
}
