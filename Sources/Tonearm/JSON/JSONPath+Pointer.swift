extension JSONPath {
    /// The ``JSONPointer`` naming what this path names, when the path is only member names, non-negative
    /// indices and `*` (which becomes the pointer's wildcard token): `$.meta.requestId` is
    /// `/meta/requestId`, `$.items[*].id` is `/items/*/id`. `nil` for paths a pointer cannot say
    /// (descendants, unions, slices, filters, negative indices), so a command that takes either form can
    /// refuse those instead of ignoring something else.
    package var pointer: JSONPointer? {
        var tokens: [String] = []
        for segment in segments {
            guard case .child(let selector) = segment else { return nil }
            switch selector {
            case .names(let names) where names.count == 1: tokens.append(names[0])
            case .indices(let indices) where indices.count == 1 && indices[0] >= 0: tokens.append(String(indices[0]))
            case .wildcard: tokens.append("*")
            default: return nil
            }
        }
        return JSONPointer(tokens: tokens)
    }
}
