import PropertyBased
import Testing

@testable import Tonearm

@Suite("Canonicalisation properties")
struct CanonicalizationPropertyTests {
    /// A random document and two independent random ways of writing it.
    struct Sample: Sendable, CustomStringConvertible {
        var value: JSONValue
        var first: String
        var second: String
        var description: String { "\(first)\n\(second)" }
    }

    static let samples = Generator<Sample, Shrink.None<Sample>>(run: { rng in
        let value = JSONTesting.RandomJSON.value(depth: 4, using: &rng)
        return Sample(
            value: value,
            first: JSONTesting.RandomJSON.render(value, using: &rng),
            second: JSONTesting.RandomJSON.render(value, using: &rng))
    })

    @Test("member order, whitespace and escape spelling do not change the canonical form")
    func invariantUnderRewriting() async throws {
        await propertyCheck(count: 300, input: Self.samples) { sample in
            let first = try JSONCanonicalizer().canonicalize(Array(sample.first.utf8))
            let second = try JSONCanonicalizer().canonicalize(Array(sample.second.utf8))
            #expect(first == second)
            // And both equal the independent serialisation of the value tree.
            #expect(first == Array(sample.value.canonicalText.utf8))
        }
    }

    @Test("canonicalising is idempotent")
    func idempotent() async throws {
        await propertyCheck(count: 300, input: Self.samples) { sample in
            let once = try JSONCanonicalizer().canonicalize(Array(sample.first.utf8))
            let twice = try JSONCanonicalizer().canonicalize(once)
            #expect(once == twice)
        }
    }

    @Test("parsing gives back the generated value")
    func parsingRoundTrips() async throws {
        await propertyCheck(count: 300, input: Self.samples) { sample in
            let parsed = try JSONValue(parsing: Array(sample.first.utf8))
            #expect(parsed == sample.value)
            #expect(parsed.differences(to: sample.value).isEmpty)
        }
    }

    /// Two requests that differ only in `/meta/requestId` (and member order).
    static let requestPairs = Generator<(String, String), Shrink.None<(String, String)>>(run: { rng in
        let body = JSONTesting.RandomJSON.value(depth: 3, using: &rng)
        func document(_ requestId: JSONValue, _ rng: inout any SeededRandomNumberGenerator) -> String {
            let meta = JSONValue.object([
                JSONMember(key: "requestId", value: requestId), JSONMember(key: "version", value: .number("2")),
            ])
            return JSONTesting.RandomJSON.render(
                .object([JSONMember(key: "meta", value: meta), JSONMember(key: "body", value: body)]), using: &rng)
        }
        let first = document(JSONTesting.RandomJSON.value(depth: 2, using: &rng), &rng)
        let second = document(JSONTesting.RandomJSON.value(depth: 2, using: &rng), &rng)
        return (first, second)
    })

    @Test("ignoring /meta/requestId makes documents that differ only there canonicalise alike")
    func ignoringMakesEqual() async throws {
        let canonicalizer = JSONCanonicalizer(ignoring: [try JSONPointer("/meta/requestId")])
        await propertyCheck(count: 300, input: Self.requestPairs) { pair in
            let first = try canonicalizer.canonicalize(Array(pair.0.utf8))
            let second = try canonicalizer.canonicalize(Array(pair.1.utf8))
            #expect(first == second)
            #expect(!String(decoding: first, as: UTF8.self).contains("requestId"))
        }
    }

    @Test("numbers: the digit-copying fast path agrees with the Double route")
    func shortDecimalsAgreeWithDouble() async throws {
        let decimals = Generator<String, Shrink.None<String>>(run: { rng in
            let digits = (0..<Int.random(in: 1...15, using: &rng)).map { _ in
                String(Int.random(in: 0...9, using: &rng))
            }.joined()
            let point = Int.random(in: 0...digits.count, using: &rng)
            let mantissa = point == 0 ? "0." + digits : String(digits.prefix(point)) + "." + digits.dropFirst(point) + "0"
            let exponent = Int.random(in: -320...320, using: &rng)
            return (Bool.random(using: &rng) ? "-" : "") + mantissa + "e" + String(exponent)
        })
        await propertyCheck(count: 2000, input: decimals) { (text: String) throws in
            guard let value = Double(text), value.isFinite else {
                #expect(throws: JSONSyntaxError.self) { try JSONTesting.canonical(text) }
                return
            }
            #expect(try JSONTesting.canonical(text) == ECMAScriptNumber.format(value), "\(text)")
        }
    }
}
