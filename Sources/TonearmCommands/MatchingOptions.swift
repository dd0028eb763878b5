import ArgumentParser
import Tonearm

/// The flags that choose a ``MatchingConfiguration``, shared by every command that computes keys.
package struct MatchingOptions: ParsableArguments {
    @Option(
        name: .customLong("match"),
        help: "Attributes in the key, comma-separated: method,url,path,query,body,header:NAME (default: method,url,query,body).")
    var attributes: String = "method,url,query,body"

    @Option(name: .customLong("ignore-query"), help: "A query/form parameter to leave out of the key (repeatable).")
    var ignoredQueryParameters: [String] = []

    @Option(name: .customLong("ignore-json"), help: "A JSON Pointer to leave out of the key, e.g. /meta/requestId (repeatable).")
    var ignoredJSONFields: [String] = []

    /// The flags' defaults; ArgumentParser fills them in (`package`, so `tonearm serve` can share the parsing).
    package init() {}

    func configuration() throws -> MatchingConfiguration {
        try Self.configuration(
            attributes: attributes, ignoredQueryParameters: ignoredQueryParameters, ignoredJSONFields: ignoredJSONFields)
    }

    /// The configuration these flags' values stand for (`tonearm serve` takes them without defaults).
    package static func configuration(
        attributes attributeList: String, ignoredQueryParameters: [String], ignoredJSONFields: [String]
    ) throws -> MatchingConfiguration {
        var attributes = Set<MatchAttribute>()
        for item in attributeList.split(separator: ",") {
            let name = item.trimmingCharacters(in: " ")
            guard let attribute = MatchAttribute(name: name) else {
                throw ValidationError("unknown attribute '\(name)' in --match; expected method, url, path, query, body or header:NAME")
            }
            attributes.insert(attribute)
        }
        var pointers: [JSONPointer] = []
        for pointer in ignoredJSONFields {
            do {
                pointers.append(try JSONPointer(pointer))
            } catch {
                throw ValidationError("--ignore-json \(pointer): \(error)")
            }
        }
        return MatchingConfiguration(
            attributes: attributes, ignoredQueryParameters: Set(ignoredQueryParameters), ignoredJSONFields: pointers)
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
