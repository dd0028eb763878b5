import HTTPTypes
import Tonearm

extension Array where Element == HeaderField {
    /// The fields of `fields` in order, duplicates kept, names spelled as they were given.
    public init(_ fields: HTTPFields) {
        self = fields.map { HeaderField($0.name.rawName, $0.value) }
    }
}

extension HTTPFields {
    /// `headers` as swift-http-types fields, in order, duplicates kept.
    ///
    /// `HTTPField` legalises values (it replaces bytes HTTP forbids, such as a bare line feed, with a
    /// space), which is why Tonearm's core keeps its own `[HeaderField]`: a recording must replay the
    /// bytes the server sent, even illegal ones. Convert at the edge, when a client needs these types.
    ///
    /// - Throws: ``HTTPTypesConversionError/invalidHeaderName(_:)`` for a name that is not an HTTP token.
    public init(_ headers: [HeaderField]) throws(HTTPTypesConversionError) {
        self.init()
        reserveCapacity(headers.count)
        for header in headers {
            guard let name = HTTPField.Name(header.name) else { throw .invalidHeaderName(header.name) }
            append(HTTPField(name: name, value: header.value))
        }
    }
}
