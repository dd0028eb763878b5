/// How replay compares a client's WebSocket message with the recorded ones: by canonical form, as request
/// bodies are. A text message that is JSON is canonicalised (RFC 8785) without the configuration's
/// ignored fields (``MatchingConfiguration/ignoredJSONFields``), so `{"b":1,"a":2}` and `{"a":2,"b":1}`
/// are one message and a volatile `/id` can be ignored; any other message is compared byte for byte.
package struct WebSocketMessageMatcher: Sendable {
    /// A message as it is compared.
    package struct CanonicalForm: Sendable, Hashable {
        package var kind: WebSocketConversation.Message.Kind
        /// Whether ``bytes`` is canonical JSON.
        package var isJSON: Bool
        package var bytes: [UInt8]
    }

    private let json: JSONCanonicalizer

    /// A matcher ignoring the JSON fields `configuration` ignores in request bodies.
    package init(_ configuration: MatchingConfiguration = .default) {
        json = JSONCanonicalizer(ignoring: configuration.ignoredJSONFields)
    }

    /// The form `payload` is compared in.
    package func canonicalForm(_ kind: WebSocketConversation.Message.Kind, _ payload: [UInt8]) -> CanonicalForm {
        if kind == .text, Self.mayBeJSON(payload) {
            do throws(JSONSyntaxError) {
                return CanonicalForm(kind: kind, isJSON: true, bytes: try json.canonicalize(payload))
            } catch {}
        }
        return CanonicalForm(kind: kind, isJSON: false, bytes: payload)
    }

    /// What differs between a recorded message and a received one, in the terms of request bodies:
    /// JSON members by pointer, else the first differing byte; a text message against a binary one is
    /// an unmet `kind`. Empty when their canonical forms are equal.
    package func differences(recorded: CanonicalForm, received: CanonicalForm) -> [FieldDifference] {
        guard recorded != received else { return [] }
        guard recorded.kind == received.kind else {
            return [.unmetCondition("message", name: "kind", condition: recorded.kind.rawValue, received: [received.kind.rawValue])]
        }
        if recorded.isJSON, received.isJSON {
            do throws(JSONSyntaxError) {
                return try JSONValue(parsing: recorded.bytes).differences(to: try JSONValue(parsing: received.bytes))
                    .map(FieldDifference.jsonBody)
            } catch {}
        }
        if recorded.isJSON != received.isJSON {
            return [.bodyKind(recorded: recorded.isJSON ? .json : .raw, received: received.isJSON ? .json : .raw)]
        }
        let left = recorded.bytes, right = received.bytes
        let first = zip(left, right).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(left.count, right.count)
        return [.rawBody(recordedLength: left.count, receivedLength: right.count, firstDifference: first)]
    }

    /// Whether a text payload starts as a JSON object or array does (after white space): only those are
    /// worth parsing; a chat line that happens to be a number stays text.
    private static func mayBeJSON(_ payload: [UInt8]) -> Bool {
        for byte in payload {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): return true
            default: return false
            }
        }
        return false
    }
}
