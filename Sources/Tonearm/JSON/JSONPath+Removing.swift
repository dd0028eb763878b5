extension JSONPath {
    /// `document` without the values this path selects (WireMock's `jsonRemove` template helper, Jayway's
    /// `delete`): members are removed from their objects, elements from their arrays, wherever the path
    /// selects them (filters, unions, slices and `..` included); a path that selects nothing leaves the
    /// document as it is. `nil` for `$`, which names the document itself and cannot be removed from it.
    package func removing(from document: JSONValue) -> JSONValue? {
        changing(in: document) { _ in nil }
    }

    /// `document` with each value this path selects replaced by what `change` makes of it, or removed
    /// when it makes nothing. `nil` for `$` (the document itself: the caller changes it directly).
    package func changing(in document: JSONValue, _ change: (JSONValue) -> JSONValue?) -> JSONValue? {
        guard !segments.isEmpty else { return nil }
        return JSONPathSegment.changing(segments[...], in: document, root: document, change)
    }
}

extension JSONPathSegment {
    /// `node` with what `segments` select below it changed.
    static func changing(
        _ segments: ArraySlice<JSONPathSegment>, in node: JSONValue, root: JSONValue, _ change: (JSONValue) -> JSONValue?
    ) -> JSONValue {
        guard let segment = segments.first else { return node }
        let rest = segments.dropFirst()
        // What becomes of a selected child: changed at the last step, else searched further.
        let next: (JSONValue) -> JSONValue? = { child in rest.isEmpty ? change(child) : changing(rest, in: child, root: root, change) }
        switch segment {
        case .child(let selector):
            return selector.changing(node, root: root, next)
        case .descendants(let selector):
            // The selector at this node, then the same search in every value below it.
            switch selector.changing(node, root: root, next) {
            case .array(let elements): return .array(elements.map { changing(segments, in: $0, root: root, change) })
            case .object(let members):
                return .object(members.map { JSONMember(key: $0.key, value: changing(segments, in: $0.value, root: root, change)) })
            case let other: return other
            }
        }
    }
}

extension JSONPathSelector {
    /// `node` with each child this selector selects replaced by what `change` makes of it, or removed
    /// when it makes nothing. A child selected twice (a union naming it twice) is changed once.
    func changing(_ node: JSONValue, root: JSONValue, _ change: (JSONValue) -> JSONValue?) -> JSONValue {
        switch node {
        case .array(let elements):
            let selected: Set<Int>
            switch self {
            case .indices(let indices): selected = Set(indices.map { $0 < 0 ? elements.count + $0 : $0 }.filter(elements.indices.contains))
            case .wildcard: selected = Set(elements.indices)
            case .slice(let start, let end, let step): selected = Set(Self.sliceIndices(count: elements.count, start: start, end: end, step: step))
            case .filter(let filter): selected = Set(elements.indices.filter { filter.holds(for: elements[$0], root: root) })
            case .names: return node
            }
            guard !selected.isEmpty else { return node }
            return .array(elements.indices.compactMap { index in selected.contains(index) ? change(elements[index]) : elements[index] })
        case .object(let members):
            let selected: (JSONMember) -> Bool
            switch self {
            case .names(let names): selected = { member in names.contains { $0.unicodeScalars.elementsEqual(member.key.unicodeScalars) } }
            case .wildcard: selected = { _ in true }
            case .indices, .slice, .filter: return node
            }
            return .object(members.compactMap { member in
                guard selected(member) else { return member }
                return change(member.value).map { JSONMember(key: member.key, value: $0) }
            })
        default:
            return node
        }
    }
}
