/// A parsed pattern: the one tree the compiler and the rule prefilters (``LiteralPrefix``,
/// ``RequiredLiteral``) read. Flags such as `(?i)` and `(?s)` are already applied: a case-insensitive
/// letter is a ``Kind/scalars(_:)`` set, never a ``Kind/literal(_:)``.
struct PatternNode: Sendable {
    indirect enum Kind: Sendable {
        /// Matches the empty text (an empty group or branch).
        case empty
        /// One scalar that matches only itself.
        case literal(Unicode.Scalar)
        /// One scalar from a set: `.`, a class, `\d`, or a letter under `(?i)`.
        case scalars(ScalarRanges)
        /// A zero-width test.
        case assertion(PatternAssertion)
        case concatenation([PatternNode])
        case alternation([PatternNode])
        /// `max == nil` is unbounded. Greedy and lazy repeats match the same texts, so laziness is not kept.
        case repetition(PatternNode, min: Int, max: Int?)
    }

    var kind: Kind
    /// Where the node starts in the pattern, in Unicode scalars from 0.
    var offset: Int
}

/// Where a zero-width test holds.
enum PatternAssertion: Hashable, Sendable {
    /// `^`, `\A`: the start of the text.
    case textStart
    /// `^` under `(?m)`: the start of the text or just after a `\n`.
    case lineStart
    /// `\z`: the end of the text.
    case textEnd
    /// `$`, `\Z`: the end of the text, or just before a `\n` that ends it.
    case textEndOrFinalNewline
    /// `$` under `(?m)`: the end of the text or just before a `\n`.
    case lineEnd
    /// `\b`: between a word character (`\w`) and something that is not one.
    case wordBoundary
    /// `\B`.
    case notWordBoundary
}

/// Why a pattern cannot be used.
package struct PatternProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and where, e.g. "lookahead `(?=` at offset 2 is not supported: …".
    package var message: String
    /// Where in the pattern the problem is, in Unicode scalars from 0; `nil` when it concerns the whole pattern.
    package var offset: Int?

    package var description: String { message }
}
