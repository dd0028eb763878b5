/// Field-by-field comparison of two canonical requests made under the same configuration: only the
/// attributes in the key are compared, because only they can explain a miss.
enum RequestComparison {
    static func differences(recorded recordedSide: ComparableRequest, received receivedSide: ComparableRequest) -> [FieldDifference] {
        let recorded = recordedSide.canonical, received = receivedSide.canonical
        let recordedFields = recordedSide.fields, receivedFields = receivedSide.fields
        var differences: [FieldDifference] = []
        if let left = recordedFields.single(.method), let right = receivedFields.single(.method), left != right {
            differences.append(.method(recorded: text(left), received: text(right)))
        }
        if recordedFields.has(.url) || receivedFields.has(.url) {
            if recorded.url.origin != received.url.origin {
                differences.append(.origin(recorded: recorded.url.origin, received: received.url.origin))
            }
        }
        if (recordedFields.has(.url) || recordedFields.has(.path)), recorded.url.path != received.url.path {
            differences.append(.path(recorded: recorded.url.path, received: received.url.path))
        }
        if let left = recordedFields.single(.query), let right = receivedFields.single(.query), left != right {
            differences += pairDifferences(left, right) { .queryParameter(name: $0, recorded: $1, received: $2) }
        }
        differences += headerDifferences(recordedFields, receivedFields)
        differences += bodyDifferences(recordedSide, receivedSide)
        return differences
    }

    private static func headerDifferences(_ recorded: CanonicalFields, _ received: CanonicalFields) -> [FieldDifference] {
        let names = Set(recorded.headerNames + received.headerNames).sorted()
        return names.compactMap { name in
            let left = recorded.all(CanonicalLabel.header(name)).map(text), right = received.all(CanonicalLabel.header(name)).map(text)
            return left == right ? nil : .header(name: name, recorded: left, received: right)
        }
    }

    private static func bodyDifferences(_ recorded: ComparableRequest, _ received: ComparableRequest) -> [FieldDifference] {
        guard let (leftKind, left) = recorded.fields.body, let (rightKind, right) = received.fields.body, left != right else {
            return []
        }
        guard leftKind == rightKind, !left.isEmpty, !right.isEmpty else {
            return [.bodyKind(recorded: left.isEmpty ? nil : leftKind, received: right.isEmpty ? nil : rightKind)]
        }
        switch leftKind.storage {
        case .json:
            guard let leftValue = recorded.jsonBody, let rightValue = received.jsonBody else {
                return [rawDifference(left, right)]
            }
            return leftValue.differences(to: rightValue).map(FieldDifference.jsonBody)
        case .form:
            return pairDifferences(left, right) { .formField(name: $0, recorded: $1, received: $2) }
        case .raw:
            return [rawDifference(left, right)]
        }
    }

    private static func rawDifference(_ left: [UInt8], _ right: [UInt8]) -> FieldDifference {
        let offset = zip(left, right).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(left.count, right.count)
        return .rawBody(recordedLength: left.count, receivedLength: right.count, firstDifference: offset)
    }

    /// Compares two canonical `a=1&b=2` serialisations name by name.
    private static func pairDifferences(
        _ left: [UInt8], _ right: [UInt8], make: (String, [String], [String]) -> FieldDifference
    ) -> [FieldDifference] {
        let recorded = grouped(left), received = grouped(right)
        let names = Set(recorded.keys).union(received.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return names.compactMap { name in
            let leftValues = recorded[name] ?? [], rightValues = received[name] ?? []
            return leftValues == rightValues ? nil : make(name, leftValues, rightValues)
        }
    }

    private static func grouped(_ serialized: [UInt8]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        serialized.withUnsafeBytes { buffer in
            for pair in FormEncoding.pairs(buffer) { result[pair.decodedName, default: []].append(pair.decodedValue) }
        }
        return result
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// A canonical request prepared for comparison: its lines by label and its JSON body parsed, once,
/// so the live request of a miss is not re-read for every candidate it is compared with.
struct ComparableRequest {
    let canonical: CanonicalRequest
    let fields: CanonicalFields
    let jsonBody: JSONValue?

    init(_ canonical: CanonicalRequest) {
        self.canonical = canonical
        fields = CanonicalFields(canonical)
        if let (kind, bytes) = fields.body, kind == .json {
            jsonBody = try? JSONValue(parsing: bytes)
        } else {
            jsonBody = nil
        }
    }
}

/// The lines of a canonical form, looked up by label.
struct CanonicalFields {
    let fields: [(label: String, value: [UInt8])]

    init(_ canonical: CanonicalRequest) {
        fields = canonical.fields
    }

    func has(_ label: CanonicalLabel) -> Bool { fields.contains { $0.label == label.description } }
    func single(_ label: CanonicalLabel) -> [UInt8]? { fields.first { $0.label == label.description }?.value }
    func all(_ label: String) -> [[UInt8]] { fields.filter { $0.label == label }.map(\.value) }

    var headerNames: [String] { fields.compactMap { CanonicalLabel.headerName(in: $0.label) } }

    var body: (BodyKind, [UInt8])? {
        for field in fields {
            if let kind = CanonicalLabel.bodyKind(in: field.label) { return (kind, field.value) }
        }
        return nil
    }
}
