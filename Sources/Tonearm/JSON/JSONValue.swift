/// A parsed JSON document, for comparing bodies structurally and explaining how they differ.
///
/// Values made by `init(parsing:)` are already canonical: numbers hold their RFC 8785 text (so `1.0`
/// and `1` are the same `.number("1")`) and object members are in canonical order without
/// duplicates.
///
/// Equality and hashing follow JSON, not Swift:
/// - strings and member names are compared by Unicode scalars. Swift's `String ==` applies canonical
///   equivalence (`"\u{C5}" == "A\u{30A}"` is `true`), but JSON, RFC 8785 and therefore Tonearm's
///   hash keys treat those as different text;
/// - objects compare regardless of member order, because JSON objects are unordered;
/// - numbers compare by their text, which is canonical for parsed values.
public indirect enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number as its canonical text, e.g. `"4.5"`, `"1e+30"`, or a verbatim integer above 2^53.
    /// Keeping text rather than a `Double` preserves large integers exactly.
    case number(String)
    /// A string, exactly as decoded (no Unicode normalisation).
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object's members. Order does not affect equality; `canonicalText` sorts them.
    case object([JSONMember])

    /// Parses strict JSON with the same rules (and errors) as `JSONCanonicalizer`.
    public init(parsing json: [UInt8]) throws(JSONSyntaxError) {
        let canonical = try JSONCanonicalizer().canonicalize(json)
        let result: Result<JSONValue, JSONSyntaxError> = canonical.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            do throws(JSONSyntaxError) {
                return .success(try JSONValue.read(reader.value(), from: &reader))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }
}
