/// Turns a JSON text into its RFC 8785 (JSON Canonicalization Scheme) form, so that bodies that mean
/// the same thing hash to the same key however they were spaced, ordered or escaped.
///
/// What the output looks like:
/// - no insignificant whitespace;
/// - object members sorted by their names compared as UTF-16 code units, arrays in input order;
/// - strings as UTF-8 without normalisation, escaping only `"`, `\` and U+0000…U+001F (`\b \t \n \f
///   \r` in short form, the rest as `\u00xx`);
/// - numbers as ECMAScript prints the IEEE-754 double (`1.0` → `1`, `1E30` → `1e+30`), with one
///   Tonearm exception, see below.
///
/// Input must be strict RFC 8259 JSON that is also I-JSON: no duplicate member names, no lone
/// surrogates, valid UTF-8, no trailing commas or garbage, numbers within the double range, and at
/// most 512 levels of nesting. Anything else throws a `JSONSyntaxError` that says where.
///
/// ## Large integers
/// An integer literal (optional `-`, digits, no fraction or exponent) whose magnitude is above 2^53
/// is written verbatim instead of being rounded through a double as RFC 8785 would. Otherwise
/// `9007199254740993` and `9007199254740992`, say two different order ids, would canonicalise
/// identically and two different requests would match. Integers up to 2^53 come out the same either
/// way; only `-0` changes (to `0`).
///
/// ## Ignored pointers
/// Each `JSONPointer` given to `init(ignoring:)` removes what it names before the members are sorted:
/// - a **member** is removed with its name, so a document with the member and one without it
///   canonicalise alike;
/// - an **array element** is replaced by `null` rather than removed, because removing it would shift
///   every later index and make unrelated elements compare against each other;
/// - the empty pointer (the whole document) turns the output into `null`, after the input has still
///   been checked;
/// - a `*` token matches any member name or array index at its level (see `JSONPointer`).
///
/// Ignored parts are still validated. With no pointers the scan does no matching work at all.
public struct JSONCanonicalizer: Sendable, Hashable {
    /// The pointers whose targets are left out, as given.
    public let ignoredPointers: [JSONPointer]
    let trie: IgnoreTrie?

    /// Creates a canonicaliser that drops the parts of each document named by `pointers`.
    public init(ignoring pointers: [JSONPointer] = []) {
        ignoredPointers = pointers
        trie = pointers.isEmpty ? nil : IgnoreTrie(pointers)
    }

    /// Two canonicalisers are equal when they ignore the same set of pointers, and so produce the
    /// same bytes for every input; order and repetition of the pointers do not matter.
    public static func == (lhs: JSONCanonicalizer, rhs: JSONCanonicalizer) -> Bool {
        Set(lhs.ignoredPointers) == Set(rhs.ignoredPointers)
    }

    /// Hashes the set of ignored pointers, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Set(ignoredPointers))
    }

    /// The deepest nesting of objects and arrays that is accepted.
    public static var maximumDepth: Int { CanonicalWriter.maximumDepth }

    /// Canonical RFC 8785 bytes of `json`, with members at ignored pointers removed.
    public func canonicalize(_ json: [UInt8]) throws(JSONSyntaxError) -> [UInt8] {
        var result: [UInt8] = []
        // `Array.withUnsafeBytes` rethrows untyped errors, so the typed error is carried out by hand.
        var failure: JSONSyntaxError?
        json.withUnsafeBytes { raw in
            do throws(JSONSyntaxError) {
                try canonicalize(raw, appendingTo: &result)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return result
    }

    /// Appends the canonical form of `json` to `output`.
    ///
    /// This is the hot path: a caller that builds a hash input from several parts can keep one
    /// buffer. The form is built separately and appended only on success, so on error `output` is
    /// left unchanged.
    public func canonicalize(
        _ json: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]
    ) throws(JSONSyntaxError) {
        guard let start = json.baseAddress, json.count > 0 else {
            throw JSONSyntaxError(offset: 0, line: 1, column: 1, expected: "a value")
        }
        var writer = CanonicalWriter(
            input: json, bytes: start.assumingMemoryBound(to: UInt8.self), trie: trie)
        try writer.run()
        writer.out.withBytes { output.append(contentsOf: $0) }
    }
}
