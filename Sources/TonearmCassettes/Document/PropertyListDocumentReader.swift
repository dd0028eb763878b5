import Foundation

/// Reads an Apple property list (XML or binary) into a ``DocumentNode`` tree. Foundation's parser
/// reports no positions, so errors from here name the path only.
enum PropertyListDocumentReader {
    static func read(_ source: DocumentSource) throws(CassetteError) -> DocumentNode {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(source.bytes), options: [], format: nil)
        } catch {
            throw CassetteError(file: source.file, expected: "a property list", found: "\((error as NSError).localizedDescription)")
        }
        return convert(object)
    }

    private static func convert(_ object: Any) -> DocumentNode {
        DocumentNode(value: value(object), location: .unknown)
    }

    private static func value(_ object: Any) -> DocumentNode.Value {
        switch object {
        case let text as String: return .string(text)
        case let data as Data: return .binary(Array(data))
        case let date as Date: return .string(Timestamp.iso8601(date))
        case let dictionary as [String: Any]:
            // Property-list dictionaries are unordered; sort keys so imports are deterministic.
            return .object(dictionary.keys.sorted().map { DocumentNode.Member(key: $0, value: convert(dictionary[$0] as Any)) })
        case let array as [Any]: return .array(array.map(convert))
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            return .number(number.stringValue)
        default: return .null
        }
    }
}
