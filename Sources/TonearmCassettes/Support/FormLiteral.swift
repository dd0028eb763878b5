import Tonearm

/// Writes decoded text (a HAR `queryString` value, a redaction placeholder) into queries and form
/// bodies with the core's form encoding, so the result reads back, by the same rules matching uses, as
/// exactly that text.
enum FormLiteral {
    /// `text` as one canonical form component. The core's encoder reads `+` as a space and decodes
    /// `%` escapes; escaping those two first makes it take every character of `text` literally.
    static func component(_ text: String) -> String {
        var literal = ""
        literal.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "%": literal += "%25"
            case "+": literal += "%2B"
            default: literal.unicodeScalars.append(character)
            }
        }
        return FormEncoding.canonicalName(literal)
    }

    /// `a=1&b=2` for decoded pairs.
    static func encode(_ pairs: [(name: String, value: String)]) -> String {
        var output: [UInt8] = []
        FormEncoding.serialize(pairs.map { FormPair(name: component($0.name), value: component($0.value)) }, appendingTo: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
