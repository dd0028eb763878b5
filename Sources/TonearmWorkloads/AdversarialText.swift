/// Texts that keep a pattern's matching off its DFA tables, for the pattern engine's worst-case tests and
/// benchmarks (issue 18): shared so that both exercise the same inputs.
public enum AdversarialText {
    /// `count` pseudo-random `a` and `b`, the same for the same seed on every platform (a linear
    /// congruential generator; the benchmarks' recorded numbers were measured on exactly this text).
    /// Random text reaches a different automaton state nearly every scalar for patterns like `a[ab]{12}$`.
    public static func ab(_ count: Int, seed: UInt64) -> String {
        var state = seed
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            scalars.append(state >> 33 & 1 == 0 ? "a" : "b")
        }
        return String(scalars)
    }
}
