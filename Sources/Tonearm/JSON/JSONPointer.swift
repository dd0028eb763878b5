/// An RFC 6901 JSON Pointer, used to name parts of a body that matching should ignore and to say
/// where two bodies differ.
///
/// `""` names the whole document, `"/a~1b/~0c"` the member `"~c"` of the member `"a/b"`, and
/// `"/items/0"` the first element of `items`.
///
/// ## Wildcard extension
/// Tonearm adds one thing to RFC 6901: a reference token that is exactly `*` matches **any** member
/// name or **any** array index at that level, so `/items/*/id` names `id` in every element of
/// `items` and `/*/etag` names `etag` in every top-level member. Request bodies often carry one
/// volatile field per element (ids, timestamps), and listing every index is impossible when the
/// length varies. The price is that a member literally named `*` cannot be singled out: a `*` token
/// matches it along with every other name.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first; empty for the whole document.
    public var tokens: [String]

    /// Parses the RFC 6901 string form.
    ///
    /// Strictness matters because a mistyped pointer would otherwise silently ignore nothing: a
    /// pointer must be empty or start with `/`, and `~` may only appear as `~0` (`~`) or `~1` (`/`).
    public init(_ string: String) throws(JSONPointerError) {
        guard !string.isEmpty else {
            tokens = []
            return
        }
        var scalars = Array(string.unicodeScalars)[...]
        guard scalars.first == "/" else {
            throw JSONPointerError(pointer: string, reason: "it must be empty or start with '/'")
        }
        scalars = scalars.dropFirst()
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        var iterator = scalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar {
            case "/":
                tokens.append(String(current))
                current = String.UnicodeScalarView()
            case "~":
                switch iterator.next() {
                case "0": current.append("~")
                case "1": current.append("/")
                case let other?:
                    throw JSONPointerError(
                        pointer: string, reason: "'~\(other)' is not an escape (only ~0 and ~1 are)")
                case nil:
                    throw JSONPointerError(
                        pointer: string, reason: "it ends with '~' (only ~0 and ~1 are escapes)")
                }
            default:
                current.append(scalar)
            }
        }
        tokens.append(String(current))
        self.tokens = tokens
    }

    /// Builds a pointer from already unescaped tokens; cannot fail because every string is a valid token.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// The RFC 6901 string form, with `~` and `/` escaped again.
    public var description: String {
        var result = ""
        for token in tokens {
            result += "/"
            result += JSONPointer.escape(token)
        }
        return result
    }

    /// Escapes one reference token (`~` → `~0`, `/` → `~1`); the order matters so `~1` in a name does
    /// not turn into `/`.
    static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return token
        }
        var escaped = String.UnicodeScalarView()
        for scalar in token.unicodeScalars {
            switch scalar {
            case "~": escaped.append(contentsOf: "~0".unicodeScalars)
            case "/": escaped.append(contentsOf: "~1".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Compares tokens scalar by scalar: Swift's `String ==` would call `"\u{C5}"` and `"A\u{30A}"`
    /// equal, yet they name different members.
    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        lhs.tokens.count == rhs.tokens.count
            && zip(lhs.tokens, rhs.tokens).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    /// Hashes the UTF-8 bytes, consistent with the scalar-wise `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tokens.count)
        for token in tokens {
            hashScalars(of: token, into: &hasher)
        }
    }
}

/// Why a string is not a JSON Pointer.
public struct JSONPointerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text that was given.
    public var pointer: String
    /// What is wrong with it, phrased to follow "because".
    public var reason: String

    /// Creates an error for `pointer`.
    public init(pointer: String, reason: String) {
        self.pointer = pointer
        self.reason = reason
    }

    /// A message such as `invalid JSON pointer "a/b": it must be empty or start with '/'`.
    public var description: String {
        "invalid JSON pointer \"\(pointer)\": \(reason)"
    }
}

/// Feeds the exact UTF-8 bytes (plus the length, so concatenations differ) to `hasher`; Swift's own
/// `String` hash follows canonical equivalence, which JSON does not.
func hashScalars(of string: String, into hasher: inout Hasher) {
    var string = string
    string.withUTF8 { bytes in
        hasher.combine(bytes.count)
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
}
