import Foundation
import Tonearm
import TonearmCassettes

/// What each helper computes, written from WireMock's documentation and checked against its 2.35.1 jar.
enum TemplateHelpers {
    /// What `call` gives with `arguments` and `options`; `block` is the text of its block, for the helpers
    /// that take it (``TemplateHelper/takesBlockContent``), when called as one.
    static func call(
        _ call: TemplateCall, _ arguments: [TemplateValue], options: [String: TemplateValue],
        variables: inout [String: TemplateValue], limits: TemplateLimits, block: String? = nil
    ) throws(TemplateError) -> TemplateValue {
        let first = arguments.first ?? .null
        let second = block.map(TemplateValue.string) ?? (arguments.count > 1 ? arguments[1] : nil)
        switch call.helper {
        case .if: return .bool(first.isTruthy)
        case .unless, .not: return .bool(!first.isTruthy)
        case .each, .with: return first
        case .eq: return .bool(arguments.count == 2 && equal(arguments[0], arguments[1]))
        case .neq: return .bool(!(arguments.count == 2 && equal(arguments[0], arguments[1])))
        case .gt, .gte, .lt, .lte:
            guard arguments.count == 2 else { return .bool(false) }
            let order = compare(arguments[0], arguments[1])
            switch call.helper {
            case .gt: return .bool(order > 0)
            case .gte: return .bool(order >= 0)
            case .lt: return .bool(order < 0)
            default: return .bool(order <= 0)
            }
        case .and: return .bool(!arguments.isEmpty && arguments.allSatisfy(\.isTruthy))
        case .or: return .bool(arguments.contains(where: \.isTruthy))
        case .jsonPath: return jsonPath(first, arguments.count > 1 ? arguments[1].text : "")
        case .parseJson:
            guard let json = try? JSONValue(parsing: Array(first.text.utf8)) else { return .null }
            return TemplateValue(converting: json)
        case .now: return now(options)
        case .randomValue: return try randomValue(options, limits: limits, at: call.position)
        case .math: return arguments.count == 3 ? math(arguments[0], arguments[1].text, arguments[2]) : .null
        case .regexExtract:
            return regexExtract(first.text, pattern: arguments.count > 1 ? arguments[1].text : "",
                                into: arguments.count > 2 ? arguments[2].text : nil, variables: &variables)
        case .base64:
            if options["decode"]?.isTruthy == true {
                guard let bytes = Data(base64Encoded: padded(first.text)) else { return .string("") }
                return .string(String(decoding: bytes, as: UTF8.self))
            }
            let encoded = Data(first.text.utf8).base64EncodedString()
            return .string(options["padding"].map { $0.isTruthy || $0.text == "true" } == false ? String(encoded.prefix { $0 != "=" }) : encoded)
        case .urlEncode:
            return .string(options["decode"]?.isTruthy == true ? formDecoded(first.text) : formEncoded(first.text))
        case .trim: return .string(first.text.trimmingSpaces)
        case .upper: return .string(first.text.uppercased())
        case .lower: return .string(first.text.lowercased())
        case .size: return size(first)
        case .lookup: return arguments.count > 1 ? first.member(arguments[1].text) ?? .null : .null
        case .formatJson: return TemplateJSONHelpers.formatJson(block.map(TemplateValue.string) ?? arguments.first, options: options)
        case .jsonMerge: return TemplateJSONHelpers.jsonMerge(first, second, options: options)
        case .jsonRemove: return TemplateJSONHelpers.jsonRemove(first, arguments.dropFirst())
        case .jsonArrayAdd: return TemplateJSONHelpers.jsonArrayAdd(first, second, options: options)
        case .toJson: return TemplateJSONHelpers.toJson(first)
        case .array: return .list(arguments)
        case .arrayJoin: return TemplateJSONHelpers.arrayJoin(arguments, options: options) { $0.text }
        case .pickRandom: return TemplateJSONHelpers.pickRandom(arguments, options: options)
        case .val: return TemplateJSONHelpers.val(first, options: options, variables: &variables)
        case .assign:
            // `{{#assign 'name'}}text{{/assign}}`: the block's text kept under the name; nothing rendered.
            if let block, !first.text.isEmpty { variables[first.text] = .string(block) }
            return .null
        }
    }

    // MARK: Comparisons

    /// Numbers compare by value, everything else by its text.
    private static func equal(_ left: TemplateValue, _ right: TemplateValue) -> Bool {
        if case .bool(let a) = left, case .bool(let b) = right { return a == b }
        if isNumeric(left), isNumeric(right), let a = left.number, let b = right.number { return a == b }
        return left.text == right.text
    }

    private static func compare(_ left: TemplateValue, _ right: TemplateValue) -> Int {
        if let a = left.number, let b = right.number { return a < b ? -1 : (a > b ? 1 : 0) }
        let (a, b) = (left.text, right.text)
        return a < b ? -1 : (a > b ? 1 : 0)
    }

    private static func isNumeric(_ value: TemplateValue) -> Bool {
        switch value {
        case .integer, .decimal, .json(.number): true
        default: false
        }
    }

    // MARK: JSON

    /// What `path` selects in `document` (parsed when it is JSON text), as WireMock's `jsonPath` helper
    /// gives it: the value for a definite path (`$.a.b`, `$.items[0]`), a list for one that may select
    /// several (filters, `..`, wildcards), nothing for a path that does not parse.
    private static func jsonPath(_ document: TemplateValue, _ path: String) -> TemplateValue {
        let (selecting, counts) = countingFunction(path)
        guard let compiled = try? JSONPath(selecting) else { return .null }
        let json: JSONValue
        if case .json(let value) = document {
            json = value
        } else {
            guard let parsed = try? JSONValue(parsing: Array(document.text.utf8)) else { return .null }
            json = parsed
        }
        let selected = compiled.select(in: json)
        if counts {
            // Jayway's `length()` counts an array's elements or an object's members; of anything else,
            // or of nothing, WireMock writes nothing.
            switch selected.first {
            case .array(let items)?: return .integer(items.count)
            case .object(let members)?: return .integer(members.count)
            default: return .null
            }
        }
        if compiled.isDefinite { return selected.first.map(TemplateValue.json) ?? .null }
        return .json(.array(selected))
    }

    /// `$.items.length()` (or `.size()`), which WireMock's Jayway JSONPath reads, split into the path the
    /// core selects with (it has no functions) and whether to count what that selects. Only after a
    /// definite path: after a wildcard or filter Jayway applies the function to each element, which
    /// stays refused when the template is loaded.
    static func countingFunction(_ path: String) -> (path: String, counts: Bool) {
        for function in [".length()", ".size()"] where path.hasSuffix(function) {
            let selecting = String(path.dropLast(function.count))
            if let compiled = try? JSONPath(selecting), compiled.isDefinite { return (selecting, true) }
        }
        return (path, false)
    }

    // MARK: Dates

    /// `now` in UTC as `2026-01-02T03:04:05Z`, moved by `offset` ("3 days", "-1 hours"), in `format` (a
    /// Java date pattern, or `epoch` milliseconds, or `unix` seconds) and `timezone`.
    private static func now(_ options: [String: TemplateValue]) -> TemplateValue {
        var date = Date()
        if let offset = options["offset"]?.text { date = shifted(date, by: offset) }
        let format = options["format"]?.text
        // Exactly representable or nothing: an offset of a billion years must not trap the conversion.
        if format == "epoch" { return Int(exactly: (date.timeIntervalSince1970 * 1000).rounded(.down)).map(TemplateValue.integer) ?? .null }
        if format == "unix" { return Int(exactly: date.timeIntervalSince1970.rounded(.down)).map(TemplateValue.integer) ?? .null }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = options["timezone"].flatMap { TimeZone(identifier: $0.text) } ?? TimeZone(identifier: "UTC")
        formatter.dateFormat = format ?? "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return .string(formatter.string(from: date))
    }

    private static func shifted(_ date: Date, by offset: String) -> Date {
        let parts = offset.trimmingSpaces.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let amount = Int(parts[0]) else { return date }
        let unit = parts[1].lowercased()
        let (component, seconds): (Calendar.Component, Double)
        switch unit.hasSuffix("s") ? String(unit.dropLast()) : unit {
        case "second": (component, seconds) = (.second, 1)
        case "minute": (component, seconds) = (.minute, 60)
        case "hour": (component, seconds) = (.hour, 3600)
        case "day": (component, seconds) = (.day, 86400)
        case "week": (component, seconds) = (.weekOfYear, 604_800)
        case "month": (component, seconds) = (.month, 2_678_400)
        case "year": (component, seconds) = (.year, 31_622_400)
        default: return date
        }
        // Ten thousand years either way is more than any test means, and keeps the calendar's arithmetic
        // (and the conversion to epoch milliseconds) finite.
        guard Double(amount).magnitude * seconds <= 10_000 * 31_622_400 else { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(byAdding: component, value: amount, to: date) ?? date
    }

    // MARK: Random values

    private static func randomValue(_ options: [String: TemplateValue], limits: TemplateLimits, at position: TemplatePosition) throws(TemplateError) -> TemplateValue {
        let type = options["type"]?.text.uppercased() ?? "ALPHANUMERIC"
        if type == "UUID" { return .string(UUID().uuidString.lowercased()) }
        let requested = options["length"]?.number ?? 36
        guard requested >= 0, requested <= Double(limits.outputBytes) else {
            throw TemplateError(position: position, expected: "a randomValue length within the output limit (\(limits.outputBytes) bytes)", found: options["length"]?.text ?? "")
        }
        let length = Int(requested)
        let alphabet: [Character] = switch type {
        case "ALPHABETIC": Array("abcdefghijklmnopqrstuvwxyz")
        case "NUMERIC": Array("0123456789")
        case "HEXADECIMAL": Array("0123456789abcdef")
        case "ALPHANUMERIC_AND_SYMBOLS": Array("abcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+,-./:;<=>?@[]^_{|}~")
        default: Array("abcdefghijklmnopqrstuvwxyz0123456789")
        }
        var generator = SystemRandomNumberGenerator()
        let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
        return .string(options["uppercase"]?.isTruthy == true ? text.uppercased() : text)
    }

    // MARK: Arithmetic

    /// `math a op b`: integers stay integers (division rounds half up, as WireMock's does), decimals are
    /// computed as WireMock's `BigDecimal` (``decimalMath(_:_:_:)``); text that is not a number counts as
    /// 0, a division by zero gives nothing.
    private static func math(_ left: TemplateValue, _ operation: String, _ right: TemplateValue) -> TemplateValue {
        let a = left.number ?? 0
        let b = right.number ?? 0
        if left.isInteger || left.number == nil, right.isInteger || right.number == nil, let x = Int(exactly: a), let y = Int(exactly: b) {
            let result: (Int, Bool)
            switch operation {
            case "+": result = x.addingReportingOverflow(y)
            case "-": result = x.subtractingReportingOverflow(y)
            case "*": result = x.multipliedReportingOverflow(by: y)
            case "/":
                guard y != 0 else { return .null }
                let quotient = (Double(x) / Double(y)).rounded(.toNearestOrAwayFromZero)
                return Int(exactly: quotient).map(TemplateValue.integer) ?? .decimal(quotient)
            case "%":
                guard y != 0 else { return .null }
                result = x.remainderReportingOverflow(dividingBy: y)
            default: return .null
            }
            if !result.1 { return .integer(result.0) }
        }
        if operation != "%", let x = scaledDecimal(left), let y = scaledDecimal(right) {
            return decimalMath(x, operation, y)
        }
        switch operation {
        case "+": return .decimal(a + b)
        case "-": return .decimal(a - b)
        case "*": return .decimal(a * b)
        case "/": return b == 0 ? .null : .decimal(a / b)
        case "%": return b == 0 ? .null : .decimal(a.truncatingRemainder(dividingBy: b))
        default: return .null
        }
    }

    /// WireMock computes with `BigDecimal`: sums, differences and products exact (`0.1 + 0.2` is `0.3`),
    /// a quotient rounded half up to the dividend's scale (`10.5 / 2` is `5.3`, `1 / 4.0` is `0`); a
    /// result with no fraction digits is an integer, any other is written as a double (`3.0`).
    private static func decimalMath(_ x: (value: Decimal, scale: Int), _ operation: String, _ y: (value: Decimal, scale: Int)) -> TemplateValue {
        var result: Decimal
        var scale: Int
        switch operation {
        case "+": (result, scale) = (x.value + y.value, max(x.scale, y.scale))
        case "-": (result, scale) = (x.value - y.value, max(x.scale, y.scale))
        case "*": (result, scale) = (x.value * y.value, x.scale + y.scale)
        case "/":
            guard !y.value.isZero else { return .null }
            var quotient = x.value / y.value
            (result, scale) = (Decimal(), x.scale)
            NSDecimalRound(&result, &quotient, scale, .plain)
        default: return .null
        }
        if scale == 0, let integer = Int(result.description) { return .integer(integer) }
        return Double(result.description).map(TemplateValue.decimal) ?? .null
    }

    /// A number with its scale (digits after the point), read from the text WireMock reads it from: a
    /// literal as Java writes the double, anything else as written. `nil` for an exponent or no number.
    private static func scaledDecimal(_ value: TemplateValue) -> (value: Decimal, scale: Int)? {
        let text: String
        switch value {
        case .integer(let number): text = String(number)
        case .decimal(let number): text = TemplateValue.javaText(number)
        case .string, .multi, .json(.number): text = value.text.trimmingSpaces
        default: return nil
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
            let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        let scale = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
        return (number, scale)
    }

    // MARK: Text

    /// The first match of `pattern` in `text`; with `variable`, its groups are assigned to that name
    /// (`{{parts.0}}`) and nothing is written.
    private static func regexExtract(
        _ text: String, pattern: String, into variable: String?, variables: inout [String: TemplateValue]
    ) -> TemplateValue {
        guard let regex = try? Regex(pattern), let match = try? regex.firstMatch(in: text) else {
            return TemplateJSONHelpers.error("Nothing matched \(pattern)")
        }
        guard let variable else { return .string(String(text[match.range])) }
        let groups = match.output.dropFirst().map { $0.substring.map { TemplateValue.string(String($0)) } ?? .null }
        variables[variable] = .list(Array(groups))
        return .null
    }

    /// `application/x-www-form-urlencoded` encoding, as Java's `URLEncoder` writes it.
    private static func formEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                encoded += "+"
            default:
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xf, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    private static func formDecoded(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }

    private static func padded(_ base64: String) -> String {
        let remainder = base64.utf8.count % 4
        return remainder == 0 ? base64 : base64 + String(repeating: "=", count: 4 - remainder)
    }

    private static func size(_ value: TemplateValue) -> TemplateValue {
        switch value {
        case .null: .integer(0)
        case .string(let text): .integer(text.count)
        case .multi(let values): .integer(values.count)
        case .list(let items): .integer(items.count)
        case .map(let members, _), .path(_, let members): .integer(members.count)
        case .json(let json):
            switch json {
            case .array(let items): .integer(items.count)
            case .object(let members): .integer(members.count)
            case .string(let text): .integer(text.count)
            default: .integer(0)
            }
        default: .integer(value.text.count)
        }
    }
}
