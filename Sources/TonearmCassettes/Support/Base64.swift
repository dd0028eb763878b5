import Foundation

/// Standard base64 (RFC 4648 §4), as cassettes of every format use it.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// The decoded bytes, or `nil` when `text` is not base64. Line breaks are allowed when
    /// `ignoringWhitespace` (YAML block scalars wrap base64 at 60–76 columns).
    static func decode(_ text: String, ignoringWhitespace: Bool = false) -> [UInt8]? {
        var text = text
        if ignoringWhitespace { text.removeAll { $0 == "\n" || $0 == "\r" || $0 == " " || $0 == "\t" } }
        return Data(base64Encoded: text).map(Array.init)
    }
}
