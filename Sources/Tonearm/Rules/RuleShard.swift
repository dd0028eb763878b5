/// A block of consecutive rules with one literal search over all of them: a request's URL (and path) is
/// read once for the whole block, and only the rules whose chosen literal occurs in it are then checked
/// one by one (``CompiledRule/matches(_:target:parts:)``). The prefilter idea of RE2's and
/// regex-automata's literal optimisations, applied across a rule set as Hyperscan factors literals out of
/// many patterns.
///
/// Each rule is filed under one run of literal text that every match of its pattern contains
/// (``RequiredLiteral/runs(of:)``), the run fewest other rules of the block share, so rules with a
/// common prefix (`https://api.example.com/v1/`) are told apart by the text that differs. A rule whose
/// pattern has no required literal is a candidate for every request. Since the literal is required, a
/// rule that is not a candidate cannot match: the block never hides a match, it only skips rules.
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
    /// The search over URL rules' literals, and the sequence number each literal stands for.
    private let urlSearch: LiteralAutomaton?
    private let urlRules: [Int32]
    private let pathSearch: LiteralAutomaton?
    private let pathRules: [Int32]
    /// Rules with no required literal, in sequence order: candidates for every request.
    private let unfiltered: [Int32]

    /// A block of `rules`, whose sequence numbers run from `start`.
    init(start: Int, rules: [CompiledRule]) {
        self.start = start
        count = rules.count
        var urlLiterals: [[UInt8]] = [], urlRules: [Int32] = []
        var pathLiterals: [[UInt8]] = [], pathRules: [Int32] = []
        var unfiltered: [Int32] = []
        let windowed = rules.map { rule in rule.literalRuns.map { Array($0.suffix(Self.literalWindow)) } }
        var shared: [[UInt8]: Int] = [:]
        for runs in windowed {
            for run in Set(runs) { shared[run, default: 0] += 1 }
        }
        for (offset, rule) in rules.enumerated() {
            let sequence = Int32(start + offset)
            guard let literal = Self.mostSelective(windowed[offset], shared: shared) else {
                unfiltered.append(sequence)
                continue
            }
            switch rule.rule.target {
            case .url:
                urlLiterals.append(literal)
                urlRules.append(sequence)
            case .path:
                pathLiterals.append(literal)
                pathRules.append(sequence)
            }
        }
        urlSearch = urlLiterals.isEmpty ? nil : LiteralAutomaton(urlLiterals)
        pathSearch = pathLiterals.isEmpty ? nil : LiteralAutomaton(pathLiterals)
        self.urlRules = urlRules
        self.pathRules = pathRules
        self.unfiltered = unfiltered
    }

    /// The run to search for: long enough to be selective, then shared by the fewest rules, then the
    /// longest; `nil` when there is none.
    private static func mostSelective(_ runs: [[UInt8]], shared: [[UInt8]: Int]) -> [UInt8]? {
        runs.min { left, right in
            let leftSelective = left.count >= selectiveLength, rightSelective = right.count >= selectiveLength
            if leftSelective != rightSelective { return leftSelective }
            let leftShared = shared[left] ?? 0, rightShared = shared[right] ?? 0
            if leftShared != rightShared { return leftShared < rightShared }
            return left.count > right.count
        }
    }

    /// Whether any rule of the block targets the whole URL (so the request's URL text is needed).
    var hasURLRules: Bool { urlSearch != nil }

    /// Appends to `candidates` the sequence numbers of the rules that may match: those whose literal
    /// occurs in `url` (for URL rules) or `path` (for path rules), and those without one. A rule may be
    /// appended more than once.
    func collectCandidates(url: UnsafeBufferPointer<UInt8>?, path: UnsafeBufferPointer<UInt8>, into candidates: inout [Int]) {
        if let urlSearch, let url {
            urlRules.withUnsafeBufferPointer { rules in
                urlSearch.forEachMatch(in: url) { candidates.append(Int(rules[$0])) }
            }
        }
        if let pathSearch {
            pathRules.withUnsafeBufferPointer { rules in
                pathSearch.forEachMatch(in: path) { candidates.append(Int(rules[$0])) }
            }
        }
        for sequence in unfiltered { candidates.append(Int(sequence)) }
    }
}
