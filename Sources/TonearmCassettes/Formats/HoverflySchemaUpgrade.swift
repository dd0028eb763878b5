import Foundation

/// Hoverfly's older simulation schemas (v1 to v4) rewritten into v5's shape, pair by pair, as Hoverfly
/// upgrades them on import, so one reader (``HoverflyPairReader``) reads every schema.
///
/// - **v1**: request fields are plain values (`path`, `method`, `destination`, `scheme`, `query`,
///   `body`); a pair whose `requestType` is `recording` (or absent) names them exactly, any other is a
///   template whose fields are globs.
/// - **v2, v3 and v4**: each field is `{exactMatch, globMatch, regexMatch, jsonMatch, jsonPathMatch,
///   xmlMatch, xpathMatch}`, one v5 matcher per member; v4 adds `headersWithMatchers`,
///   `queriesWithMatchers` and `requiresState`, and its responses `transitionsState` and `removesState`.
/// - Every schema's `headers` is `{name: [values]}`, which Hoverfly upgrades to a glob of the values
///   joined by `;`.
///
/// An exact `query` string becomes one exact matcher per parameter (Hoverfly's own upgrade drops it,
/// so an upgraded simulation answers any query; the file says which query it recorded). A glob over
/// the whole query has no v5 place and is a warning.
enum HoverflySchemaUpgrade {
    /// The versions upgraded; v3 is read as v4, as Hoverfly does.
    static let versions: Set<String> = ["v1", "v2", "v3", "v4"]

    /// v5 matcher names for the members of a v2–v4 field matcher object.
    private static let fieldMatcherKinds: [(member: String, matcher: String)] = [
        ("exactMatch", "exact"), ("globMatch", "glob"), ("jsonMatch", "json"), ("jsonPathMatch", "jsonpath"),
        ("regexMatch", "regex"), ("xmlMatch", "xml"), ("xpathMatch", "xpath"),
    ]

    /// `pair`, of schema `version`, in v5's shape; what v5 cannot hold is added to `warnings`.
    static func pair(_ pair: DocumentCursor, version: String, file: String?, warnings: inout [ImportWarning]) throws(CassetteError) -> DocumentCursor {
        let request = try pair.required("request", expected: "a request object")
        let response = try pair.required("response", expected: "a response object")
        var fields: [DocumentNode.Member] = []
        var query: [DocumentNode.Member] = []
        if version == "v1" {
            let requestType = try request.optionalString("requestType")
            let kind = requestType == nil || requestType == "recording" ? "exact" : "glob"
            for field in ["scheme", "method", "destination", "path", "body"] {
                if let value = try request.member(field) { fields.append(member(field, array([matcher(kind, value)], at: value))) }
            }
            if let queryText = try request.member("query"), queryText.carriesData {
                if kind == "exact" {
                    query = try exactQuery(queryText)
                } else {
                    warnings.append(warning(queryText, file: file, "a glob over the whole query has no place in Hoverfly v5 and is not imported; the query matches anything"))
                }
            }
            warnings += try VCRFormat.unreadData(
                in: request, known: ["requestType", "scheme", "method", "destination", "path", "body", "query", "headers", "formData"], file: file)
        } else {
            for field in ["scheme", "method", "destination", "path", "body"] {
                if let view = try request.member(field) { fields.append(member(field, try fieldMatchers(view, file: file, warnings: &warnings))) }
            }
            if let view = try request.member("query") {
                if let exact = try view.member("exactMatch") { query = try exactQuery(exact) }
                for (key, value) in try view.members() where key != "exactMatch" && value.carriesData {
                    warnings.append(warning(value, file: file, "a \(key) over the whole query has no place in Hoverfly v5 and is not imported; the query matches anything"))
                }
            }
            for (name, view) in try request.member("queriesWithMatchers")?.members() ?? [] {
                query.append(member(name, try fieldMatchers(view, file: file, warnings: &warnings)))
            }
            warnings += try VCRFormat.unreadData(
                in: request,
                known: ["scheme", "method", "destination", "path", "body", "query", "headers", "headersWithMatchers", "queriesWithMatchers", "requiresState"],
                file: file)
        }
        if !query.isEmpty { fields.append(member("query", DocumentNode(value: .object(query), location: request.node.location))) }
        var headers: [DocumentNode.Member] = []
        for (name, values) in try request.member("headers")?.members() ?? [] {
            let joined = try values.elements().map { (value) throws(CassetteError) in try value.scalarText() }.joined(separator: ";")
            headers.append(member(name, array([matcher("glob", DocumentNode(value: .string(joined), location: values.node.location))], at: values)))
        }
        for (name, view) in try request.member("headersWithMatchers")?.members() ?? [] {
            let added = try fieldMatchers(view, file: file, warnings: &warnings)
            if let index = headers.firstIndex(where: { $0.key == name }), case .array(let existing) = headers[index].value.value,
                case .array(let more) = added.value
            {
                headers[index].value.value = .array(existing + more)
            } else {
                headers.append(member(name, added))
            }
        }
        if !headers.isEmpty { fields.append(member("headers", DocumentNode(value: .object(headers), location: request.node.location))) }
        if let state = try request.member("requiresState") { fields.append(member("requiresState", state.node)) }
        let upgraded = DocumentNode(value: .object([
            member("request", DocumentNode(value: .object(fields), location: request.node.location)), member("response", response.node),
        ]), location: pair.node.location)
        return DocumentCursor(node: upgraded, path: pair.path, source: pair.source)
    }

    /// A v2–v4 field matcher object as a v5 matcher list.
    private static func fieldMatchers(_ view: DocumentCursor, file: String?, warnings: inout [ImportWarning]) throws(CassetteError) -> DocumentNode {
        var list: [DocumentNode] = []
        for (key, kind) in fieldMatcherKinds {
            if let value = try view.member(key) { list.append(matcher(kind, value)) }
        }
        warnings += try VCRFormat.unreadData(in: view, known: fieldMatcherKinds.map(\.member), file: file)
        return array(list, at: view)
    }

    /// `a=1&b=2` (percent-encoded or not) as one exact matcher per parameter.
    private static func exactQuery(_ text: DocumentCursor) throws(CassetteError) -> [DocumentNode.Member] {
        var parameters: [DocumentNode.Member] = []
        for pair in try text.string().split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in String(part).removingPercentEncoding ?? String(part) }
            let value = DocumentNode(value: .string(parts.count > 1 ? decode(parts[1]) : ""), location: text.node.location)
            let name = decode(parts[0])
            let exact = matcher("exact", value)
            if let index = parameters.firstIndex(where: { $0.key == name }), case .array(let existing) = parameters[index].value.value {
                parameters[index].value.value = .array(existing + [exact])
            } else {
                parameters.append(member(name, array([exact], at: text)))
            }
        }
        return parameters
    }

    private static func matcher(_ kind: String, _ value: DocumentCursor) -> DocumentNode {
        matcher(kind, value.node)
    }

    private static func matcher(_ kind: String, _ value: DocumentNode) -> DocumentNode {
        DocumentNode(value: .object([member("matcher", DocumentNode(value: .string(kind), location: value.location)), member("value", value)]), location: value.location)
    }

    private static func array(_ elements: [DocumentNode], at cursor: DocumentCursor) -> DocumentNode {
        DocumentNode(value: .array(elements), location: cursor.node.location)
    }

    private static func member(_ key: String, _ value: DocumentNode) -> DocumentNode.Member {
        DocumentNode.Member(key: key, value: value)
    }

    private static func warning(_ cursor: DocumentCursor, file: String?, _ message: String) -> ImportWarning {
        ImportWarning(file: file, path: cursor.path.description, message: message)
    }
}
