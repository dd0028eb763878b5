import Testing

@testable import Tonearm

/// Helpers shared by the JSON tests, namespaced so they cannot clash with other test helpers.
enum JSONTesting {
    /// Canonicalises `text` (UTF-8) and returns the result as a string, for readable expectations.
    static func canonical(_ text: String, ignoring pointers: [String] = []) throws -> String {
        let canonicalizer = JSONCanonicalizer(ignoring: try pointers.map { try JSONPointer($0) })
        return String(decoding: try canonicalizer.canonicalize(Array(text.utf8)), as: UTF8.self)
    }

    /// The syntax error `text` is rejected with; records an issue (and returns nil) if it is accepted.
    static func syntaxError(
        _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> JSONSyntaxError? {
        syntaxError(bytes: Array(text.utf8), sourceLocation: sourceLocation)
    }

    /// The syntax error `bytes` is rejected with; records an issue (and returns nil) if it is accepted.
    static func syntaxError(
        bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) -> JSONSyntaxError? {
        do {
            let output = try JSONCanonicalizer().canonicalize(bytes)
            Issue.record(
                "expected a syntax error, got \(String(decoding: output, as: UTF8.self))",
                sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    /// Decodes the hex dump format of the conformance corpus (`outhex/*.txt`).
    static func bytes(fromHex text: String) -> [UInt8]? {
        var result: [UInt8] = []
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }) {
            guard let byte = UInt8(token, radix: 16) else { return nil }
            result.append(byte)
        }
        return result
    }


    /// Random JSON documents as values, plus random (but equivalent) ways to write them.
    enum RandomJSON {
        /// Scalars chosen to stress escaping and UTF-16 ordering.
        static let interestingScalars: [Unicode.Scalar] = [
            "a", "b", "z", "A", "Z", "0", "1", "/", " ", "\"", "\\", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}",
            "\u{C}", "\u{D}", "\u{1F}", "\u{7F}", "\u{80}", "\u{E9}", "\u{C5}", "\u{30A}", "\u{20AC}", "\u{D7FF}",
            "\u{E000}", "\u{FB33}", "\u{FF01}", "\u{FFFD}", "\u{10000}", "\u{1F602}", "\u{1D11E}", "\u{10FFFD}",
        ]

        static func string<R: RandomNumberGenerator>(using rng: inout R) -> String {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &rng) {
                if Bool.random(using: &rng) {
                    scalars.append(interestingScalars.randomElement(using: &rng) ?? "a")
                } else {
                    let value = UInt32.random(in: 0x20...0x10FFFF, using: &rng)
                    scalars.append(Unicode.Scalar(value) ?? "x")
                }
            }
            return String(scalars)
        }

        static func number<R: RandomNumberGenerator>(using rng: inout R) -> String {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                return String(Int.random(in: -9_007_199_254_740_992...9_007_199_254_740_992, using: &rng))
            case 1:
                return String(Int.random(in: -1000...1000, using: &rng))
            case 2:
                let bits = UInt64.random(in: .min ... .max, using: &rng)
                let value = Double(bitPattern: bits)
                return ECMAScriptNumber.format(value.isFinite ? value : 1.5)
            default:
                let value = Double.random(in: -1...1, using: &rng) * pow10(Int.random(in: -25...25, using: &rng))
                return ECMAScriptNumber.format(value)
            }
        }

        private static func pow10(_ exponent: Int) -> Double {
            var result = 1.0
            for _ in 0..<abs(exponent) { result *= 10 }
            return exponent < 0 ? 1 / result : result
        }

        /// A random value nested at most `depth` levels; object names are unique by scalars.
        static func value<R: RandomNumberGenerator>(depth: Int, using rng: inout R) -> JSONValue {
            let roll = Int.random(in: 0..<10, using: &rng)
            if depth > 0 && roll < 3 {
                var members: [JSONMember] = []
                var seen: Set<[UInt8]> = []
                for _ in 0..<Int.random(in: 0...6, using: &rng) {
                    let key = string(using: &rng)
                    if seen.insert(Array(key.utf8)).inserted {
                        members.append(JSONMember(key: key, value: value(depth: depth - 1, using: &rng)))
                    }
                }
                return .object(members)
            }
            if depth > 0 && roll < 5 {
                return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(depth: depth - 1, using: &rng) })
            }
            switch roll {
            case 5, 6: return .string(string(using: &rng))
            case 7, 8: return .number(number(using: &rng))
            default: return [JSONValue.null, .bool(true), .bool(false)].randomElement(using: &rng) ?? .null
            }
        }

        /// Writes `value` as valid JSON with random whitespace, member order, escapes and number spelling.
        static func render<R: RandomNumberGenerator>(_ value: JSONValue, using rng: inout R) -> String {
            var out = ""
            render(value, into: &out, using: &rng)
            return whitespace(using: &rng) + out + whitespace(using: &rng)
        }

        static func whitespace<R: RandomNumberGenerator>(using rng: inout R) -> String {
            guard Int.random(in: 0..<3, using: &rng) == 0 else { return "" }
            return String((0..<Int.random(in: 1...3, using: &rng)).map { _ in [" ", "\t", "\n", "\r"].randomElement(using: &rng) ?? " " })
        }

        private static func render<R: RandomNumberGenerator>(_ value: JSONValue, into out: inout String, using rng: inout R) {
            switch value {
            case .null: out += "null"
            case .bool(let flag): out += flag ? "true" : "false"
            case .number(let text):
                // A fraction or exponent means the value is a double, so any spelling of it is equivalent;
                // integer literals must stay literal (large ones are kept verbatim).
                if text.contains(where: { $0 == "." || $0 == "e" }), Bool.random(using: &rng), let double = Double(text) {
                    out += Bool.random(using: &rng) ? double.description : double.description.uppercased()
                } else {
                    out += text
                }
            case .string(let text): renderString(text, into: &out, using: &rng)
            case .array(let elements):
                out += "["
                for (index, element) in elements.enumerated() {
                    if index > 0 { out += "," }
                    out += whitespace(using: &rng)
                    render(element, into: &out, using: &rng)
                    out += whitespace(using: &rng)
                }
                out += elements.isEmpty ? whitespace(using: &rng) + "]" : "]"
            case .object(let members):
                out += "{"
                for (index, member) in members.shuffled(using: &rng).enumerated() {
                    if index > 0 { out += "," }
                    out += whitespace(using: &rng)
                    renderString(member.key, into: &out, using: &rng)
                    out += whitespace(using: &rng) + ":" + whitespace(using: &rng)
                    render(member.value, into: &out, using: &rng)
                    out += whitespace(using: &rng)
                }
                out += members.isEmpty ? whitespace(using: &rng) + "}" : "}"
            }
        }

        private static func hex(_ unit: UInt32, upper: Bool) -> String {
            let digits = String(unit, radix: 16, uppercase: upper)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }

        private static func renderString<R: RandomNumberGenerator>(_ text: String, into out: inout String, using rng: inout R) {
            out += "\""
            for scalar in text.unicodeScalars {
                let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
                let roll = Int.random(in: 0..<10, using: &rng)
                if mustEscape || roll == 0 {
                    let short: String? = switch scalar {
                    case "\"": "\\\""
                    case "\\": "\\\\"
                    case "\u{8}": "\\b"
                    case "\u{9}": "\\t"
                    case "\u{A}": "\\n"
                    case "\u{C}": "\\f"
                    case "\u{D}": "\\r"
                    default: nil
                    }
                    if let short, Bool.random(using: &rng) {
                        out += short
                    } else {
                        let upper = Bool.random(using: &rng)
                        for unit in String(scalar).utf16 { out += hex(UInt32(unit), upper: upper) }
                    }
                } else if scalar == "/" && roll < 5 {
                    out += "\\/"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            out += "\""
        }
    }
}
