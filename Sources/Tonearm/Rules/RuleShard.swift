/// A block of consecutive rules with one literal search over all of them: a request's URL (and path) is
/// read once for the whole block, and only the rules whose chosen literal occurs in it are then checked
/// one by one (``CompiledRule/matchesGivenLiterals(_:target:parts:)`` and the cheaper tests before it).
/// The prefilter idea of RE2's and regex-automata's literal optimisations, applied across a rule set as
/// Hyperscan factors literals out of many patterns.
///
/// Each rule is filed under one run of literal text that every match of its pattern contains
/// (``RequiredLiteral/runs(of:)``), the run fewest other rules of the block share, so rules with a
/// common prefix (`https://api.example.com/v1/`) are told apart by the text that differs; an occurrence
/// counts only where the pattern pins the run (right after `^`, right before `$` or `\z`). A rule whose
/// pattern has no required literal is a candidate for every request. Since the literal is required
/// there, a rule that is not a candidate cannot match: the block never hides a match, it only skips rules.
///
/// Built once and never changed (``LiveRules`` publishes it whole), so readers share it without a lock.
final class RuleShard: Sendable {
    /// Only the last bytes of a long literal are searched: they keep the states of the search bounded
    /// (rules × this). In URL rule sets the bytes that tell rules apart come last, and 32 keeps the host
    /// of most literal prefixes too (`api7.example.com:8443/v1/users/`): with 16, the rules of fifty
    /// hosts sharing a route were all candidates for each of them.
    static let literalWindow = 32
    /// Literal runs shorter than this occur in nearly every URL (`/`, `.`), so a longer run is chosen
    /// over them whatever their counts.
    static let selectiveLength = 4

    /// The first rule's sequence number; the block holds `count` rules from there.
    let start: Int
    let count: Int
    /// The search over URL rules' literals, and per literal the rule it stands for.
    private let urlSearch: LiteralAutomaton?
    private let urlRules: [Filed]
    private let pathSearch: LiteralAutomaton?
    private let pathRules: [Filed]
    /// Rules with no required literal, in sequence order: candidates for every request.
    private let unfiltered: [Int32]

    /// A rule filed under a literal, and where an occurrence of the literal must end for the rule to
    /// be a candidate (the pattern may pin its literal to the start or the end of the text).
    private struct Filed {
        var sequence: Int32
        /// An offset from the start; or ``anywhere``, ``atEnd``, ``atEndOrBeforeFinalNewline``.
        var end: Int32

        static let anywhere: Int32 = -1
        static let atEnd: Int32 = -2
        static let atEndOrBeforeFinalNewline: Int32 = -3

        init(sequence: Int, run: LiteralRun) {
            self.sequence = Int32(truncatingIfNeeded: sequence)
            switch run.place {
            case .anywhere: end = Self.anywhere
            // The searched window is the run's last bytes, so it ends where the run does.
            case .atStart: end = Int32(truncatingIfNeeded: run.bytes.count)
            case .atEnd: end = Self.atEnd
            case .atEndOrBeforeFinalNewline: end = Self.atEndOrBeforeFinalNewline
            }
        }

        /// Whether an occurrence ending at `found` in `text` is where the rule needs it.
        @inline(__always)
        func admits(end found: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
            switch end {
            case Self.anywhere: return true
            case Self.atEnd: return found == text.count
            case Self.atEndOrBeforeFinalNewline: return found == text.count || (found == text.count - 1 && text[found] == 10)
            default: return found == Int(end)
            }
        }
    }

    /// A block of `rules`, whose sequence numbers run from `start`.
    init(start: Int, rules: [CompiledRule]) {
        self.start = start
        count = rules.count
        var urlLiterals: [[UInt8]] = [], urlRules: [Filed] = []
        var pathLiterals: [[UInt8]] = [], pathRules: [Filed] = []
        var unfiltered: [Int32] = []
        let windowed = rules.map { rule in
            rule.literalRuns.map { LiteralRun(bytes: Array($0.bytes.suffix(Self.literalWindow)), place: $0.place) }
        }
        var shared: [[UInt8]: Int] = [:]
        for runs in windowed {
            for bytes in Set(runs.map(\.bytes)) { shared[bytes, default: 0] += 1 }
        }
        for (offset, rule) in rules.enumerated() {
            let sequence = start + offset
            guard let run = Self.mostSelective(windowed[offset], shared: shared) else {
                unfiltered.append(Int32(truncatingIfNeeded: sequence))
                continue
            }
            let original = rule.literalRuns[windowed[offset].firstIndex(of: run) ?? 0]
            switch rule.rule.target {
            case .url:
                urlLiterals.append(run.bytes)
                urlRules.append(Filed(sequence: sequence, run: original))
            case .path:
                pathLiterals.append(run.bytes)
                pathRules.append(Filed(sequence: sequence, run: original))
            }
        }
        urlSearch = urlLiterals.isEmpty ? nil : LiteralAutomaton(urlLiterals)
        pathSearch = pathLiterals.isEmpty ? nil : LiteralAutomaton(pathLiterals)
        self.urlRules = urlRules
        self.pathRules = pathRules
        self.unfiltered = unfiltered
    }

    /// The run to search for: long enough to be selective, then pinned to a place in the text, then
    /// shared by the fewest rules, then the longest; `nil` when there is none.
    private static func mostSelective(_ runs: [LiteralRun], shared: [[UInt8]: Int]) -> LiteralRun? {
        runs.min { left, right in
            let leftSelective = left.bytes.count >= selectiveLength, rightSelective = right.bytes.count >= selectiveLength
            if leftSelective != rightSelective { return leftSelective }
            let leftShared = shared[left.bytes] ?? 0, rightShared = shared[right.bytes] ?? 0
            if leftShared != rightShared { return leftShared < rightShared }
            let leftPinned = left.place != .anywhere, rightPinned = right.place != .anywhere
            if leftPinned != rightPinned { return leftPinned }
            return left.bytes.count > right.bytes.count
        }
    }

    /// Whether any rule of the block targets the whole URL (so the request's URL text is needed).
    var hasURLRules: Bool { urlSearch != nil }

    /// Appends to `candidates` the sequence numbers of the rules that may match: those whose literal
    /// occurs in `url` (for URL rules) or `path` (for path rules) where their pattern needs it, and
    /// those without one. A rule may be appended more than once.
    func collectCandidates(url: UnsafeBufferPointer<UInt8>?, path: UnsafeBufferPointer<UInt8>, into candidates: inout CandidateList) {
        if let urlSearch, let url {
            Self.collect(urlSearch, urlRules, in: url, into: &candidates)
        }
        if let pathSearch {
            Self.collect(pathSearch, pathRules, in: path, into: &candidates)
        }
        for sequence in unfiltered { candidates.append(Int(sequence)) }
    }

    private static func collect(
        _ search: LiteralAutomaton, _ filed: [Filed], in text: UnsafeBufferPointer<UInt8>, into candidates: inout CandidateList
    ) {
        filed.withUnsafeBufferPointer { filed in
            search.forEachMatch(in: text) { literal, end in
                let rule = filed[literal]
                if rule.admits(end: end, in: text) { candidates.append(Int(rule.sequence)) }
            }
        }
    }
}
