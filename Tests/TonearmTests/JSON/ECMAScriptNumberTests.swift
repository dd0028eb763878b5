import Testing
import TonearmWorkloads

@testable import Tonearm

@Suite("ECMAScriptNumber")
struct ECMAScriptNumberTests {
    @Test(
        "doubles print as ECMAScript Number::toString does",
        arguments: [
            (0.0, "0"), (-0.0, "0"), (1.0, "1"), (-1.5, "-1.5"), (4.5, "4.5"), (0.1 + 0.2, "0.30000000000000004"),
            (1e21, "1e+21"), (1e20, "100000000000000000000"), (123456789012345680000.0, "123456789012345680000"),
            (1e-6, "0.000001"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (0.00001, "0.00001"), (1e30, "1e+30"),
            (333333333.33333329, "333333333.3333333"), (Double.leastNonzeroMagnitude, "5e-324"), (-Double.leastNonzeroMagnitude, "-5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"), (9007199254740992.0, "9007199254740992"),
            (1e100, "1e+100"), (1.2345e-100, "1.2345e-100"), (100.0, "100"), (0.5, "0.5"),
        ])
    func format(value: Double, expected: String) {
        #expect(ECMAScriptNumber.format(value) == expected)
    }

    @Test("non-finite values, which JSON cannot hold, print as null instead of trapping")
    func nonFinite() {
        #expect(ECMAScriptNumber.format(.nan) == "null")
        #expect(ECMAScriptNumber.format(.infinity) == "null")
        #expect(ECMAScriptNumber.format(-.infinity) == "null")
    }

    @Test("random doubles round-trip through their formatted text")
    func roundTrip() {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            let text = ECMAScriptNumber.format(value)
            #expect(Double(text) == (value == 0 ? 0 : value), "\(text)")
        }
    }
}
