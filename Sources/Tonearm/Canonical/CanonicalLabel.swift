/// The label of a line of the canonical form (docs/key-spec.md §1), defined once for everything that
/// writes or reads those lines: the canonical writer, the field reader, near-miss ranking and the tests.
///
/// A label is a `StaticString` so the writer appends its bytes straight from the binary, which on a GET
/// key measurably beats appending a `String`'s UTF-8 view.
package struct CanonicalLabel: Sendable, CustomStringConvertible {
    /// The label's bytes, as they appear in the canonical form.
    package let bytes: StaticString

    private init(_ bytes: StaticString) { self.bytes = bytes }

    /// The uppercased method.
    package static let method = CanonicalLabel("method")
    /// Scheme, host, port and path.
    package static let url = CanonicalLabel("url")
    /// The path alone, when the key has the path but not the URL.
    package static let path = CanonicalLabel("path")
    /// The canonical, sorted query.
    package static let query = CanonicalLabel("query")
    /// What every header label starts with; the lowercased header name follows.
    package static let headerPrefix = CanonicalLabel("header:")
    /// What every body label starts with; the ``BodyKind`` raw value follows.
    package static let bodyPrefix = CanonicalLabel("body:")
    /// An RFC 8785 JSON body.
    package static let jsonBody = CanonicalLabel("body:json")
    /// A form body, canonical and sorted like a query.
    package static let formBody = CanonicalLabel("body:form")
    /// A body kept as the bytes sent.
    package static let rawBody = CanonicalLabel("body:raw")

    /// The label as text.
    package var description: String { bytes.description }

    /// The label of a body line of `kind`.
    package static func body(_ kind: BodyKind) -> CanonicalLabel {
        switch kind.storage {
        case .json: jsonBody
        case .form: formBody
        case .raw: rawBody
        }
    }

    /// The label of the lines of the header `lowercasedName`.
    package static func header(_ lowercasedName: String) -> String { headerPrefix.description + lowercasedName }

    /// The header name of a header label (`header:accept` gives `accept`), or `nil` for any other label.
    package static func headerName(in label: String) -> String? {
        guard label.hasPrefix(headerPrefix.description) else { return nil }
        return String(decoding: label.utf8.dropFirst(headerPrefix.bytes.utf8CodeUnitCount), as: UTF8.self)
    }

    /// The body kind of a body label (`body:json` gives `.json`), or `nil` for any other label.
    package static func bodyKind(in label: String) -> BodyKind? {
        guard label.hasPrefix(bodyPrefix.description) else { return nil }
        return BodyKind(rawValue: String(decoding: label.utf8.dropFirst(bodyPrefix.bytes.utf8CodeUnitCount), as: UTF8.self))
    }

    /// Whether the label bytes `label` are exactly this label.
    package func isLabel(_ label: UnsafeRawBufferPointer) -> Bool {
        bytes.withUTF8Buffer { label.elementsEqual($0) }
    }

    /// Whether the label bytes `label` start with this label (for the prefixes).
    package func isPrefix(of label: UnsafeRawBufferPointer) -> Bool {
        bytes.withUTF8Buffer { label.starts(with: $0) }
    }
}
