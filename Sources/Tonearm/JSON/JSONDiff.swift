/// One place where a received JSON body differs from the expected (recorded) one.
///
/// Meant for "why did this request not match?" messages: the pointer says where, the kind says what.
public struct JSONDifference: Sendable, Hashable, CustomStringConvertible {
    /// What differs at `pointer`.
    public enum Kind: Sendable, Hashable {
        /// The received body has this value where the expected one has nothing.
        case added(JSONValue)
        /// The expected body has this value where the received one has nothing.
        case removed(JSONValue)
        /// Both have a value and they differ, including by type (e.g. a string became a number).
        case changed(from: JSONValue, to: JSONValue)
    }

    /// RFC 6901 pointer of the differing location, e.g. `/user/email` or `/items/2`; `""` for the
    /// whole document.
    public var pointer: String
    /// What differs there.
    public var kind: Kind

    /// Creates a difference.
    public init(pointer: String, kind: Kind) {
        self.pointer = pointer
        self.kind = kind
    }

    /// Longest value text quoted in `description`; the pointer already says where to look.
    static let descriptionValueLimit = 200

    /// A message such as `changed at /user/email: "a@x" -> "b@x"`.
    public var description: String {
        let place = pointer.isEmpty ? "at the document root" : "at \(pointer)"
        switch kind {
        case .added(let value):
            return "added \(place): \(Self.abbreviated(value))"
        case .removed(let value):
            return "removed \(place): \(Self.abbreviated(value))"
        case .changed(let from, let to):
            return "changed \(place): \(Self.abbreviated(from)) -> \(Self.abbreviated(to))"
        }
    }

    /// The value's canonical text, cut after ``descriptionValueLimit`` scalars with `…`: how a value is
    /// quoted wherever a difference is shown to a person (miss reports, `tonearm diff`).
    package static func abbreviated(_ value: JSONValue) -> String {
        let text = value.canonicalText
        guard text.unicodeScalars.count > descriptionValueLimit else { return text }
        var short = String.UnicodeScalarView()
        short.append(contentsOf: text.unicodeScalars.prefix(descriptionValueLimit))
        return String(short) + "…"
    }

    /// Compares pointers scalar by scalar, like `JSONValue` compares names.
    public static func == (lhs: JSONDifference, rhs: JSONDifference) -> Bool {
        lhs.pointer.utf8.elementsEqual(rhs.pointer.utf8) && lhs.kind == rhs.kind
    }

    /// Hashes consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hashScalars(of: pointer, into: &hasher)
        hasher.combine(kind)
    }
}

extension JSONValue {
    /// Every place where `other` (the received body) differs from `self` (the expected, recorded one).
    ///
    /// Objects are compared member by member (by exact name) and arrays element by element (by
    /// index), recursively, so a change deep inside yields one entry with its full pointer rather
    /// than a change of the whole document. Extra elements at the end of an array are `added` or
    /// `removed`; an inserted element in the middle shows as changes from there on, which is the
    /// honest reading when elements have no identity. Values of different types are `changed`.
    /// Results come in document order: members in canonical name order, elements by index.
    public func differences(to other: JSONValue) -> [JSONDifference] {
        var result: [JSONDifference] = []
        Self.collectDifferences(from: self, to: other, at: "", into: &result)
        return result
    }

    private static func collectDifferences(
        from expected: JSONValue, to received: JSONValue, at pointer: String, into result: inout [JSONDifference]
    ) {
        switch (expected, received) {
        case let (.object(left), .object(right)):
            let left = canonicalOrder(left)
            let right = canonicalOrder(right)
            var i = 0
            var j = 0
            while i < left.count || j < right.count {
                let order: Int
                if i == left.count {
                    order = 1
                } else if j == right.count {
                    order = -1
                } else {
                    order = CanonicalKeyOrder.compare(left[i].key, right[j].key)
                }
                if order < 0 {
                    result.append(JSONDifference(
                        pointer: pointer + "/" + JSONPointer.escape(left[i].key), kind: .removed(left[i].value)))
                    i += 1
                } else if order > 0 {
                    result.append(JSONDifference(
                        pointer: pointer + "/" + JSONPointer.escape(right[j].key), kind: .added(right[j].value)))
                    j += 1
                } else {
                    collectDifferences(
                        from: left[i].value, to: right[j].value,
                        at: pointer + "/" + JSONPointer.escape(left[i].key), into: &result)
                    i += 1
                    j += 1
                }
            }
        case let (.array(left), .array(right)):
            for index in 0..<max(left.count, right.count) {
                let path = pointer + "/" + String(index)
                if index >= right.count {
                    result.append(JSONDifference(pointer: path, kind: .removed(left[index])))
                } else if index >= left.count {
                    result.append(JSONDifference(pointer: path, kind: .added(right[index])))
                } else {
                    collectDifferences(from: left[index], to: right[index], at: path, into: &result)
                }
            }
        default:
            if expected != received {
                result.append(JSONDifference(pointer: pointer, kind: .changed(from: expected, to: received)))
            }
        }
    }
}
