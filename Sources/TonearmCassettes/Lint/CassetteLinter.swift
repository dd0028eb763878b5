import Tonearm

/// Checks a loaded cassette or rule set for mistakes that make replays surprising or leak secrets.
public enum CassetteLinter {
    /// Query parameter and JSON member names that usually hold credentials.
    public static let secretNames: Set<String> = [
        "access_token", "api_key", "apikey", "auth", "client_secret", "password", "passwd", "refresh_token",
        "secret", "signature", "sig", "token", "key",
    ]

    /// Every finding for `imported`: rules the engine would refuse to load, tracks shadowed under
    /// `strategy`, rules that can never fire, secrets that `redaction` would have hidden, and the
    /// importer's own warnings. A file with no findings loads.
    public static func lint(_ imported: CassetteImport, strategy: StrategyHint = .repeat, redaction: Redaction = .default) -> [LintFinding] {
        var findings = imported.warnings.map { LintFinding(kind: .importWarning, subject: $0.path, message: $0.message) }
        findings += refusedRules(imported)
        findings += shadowedTracks(imported.cassette.tracks, configuration: imported.configuration, strategy: strategy)
        findings += unreachableRules(imported.rules)
        findings += SecretScanner(redaction: redaction).scan(imported.cassette.tracks)
        return findings
    }

    /// Each rule the replay engine refuses, compiled alone so every refused rule is named (loading
    /// stops at the first).
    static func refusedRules(_ imported: CassetteImport) -> [LintFinding] {
        imported.rules.compactMap { rule in
            do throws(RuleError) {
                try RuleSet.check(rule)
                return nil
            } catch {
                return LintFinding(
                    kind: .refusedRule, subject: "rule \"\(rule.name)\"",
                    message: "is refused when the rules load (pattern \(rule.pattern.debugDescription)): \(error.message)")
            }
        }
    }

    /// Under `repeat` only the first track recorded for a key ever answers; the others are dead. Tracks
    /// with a scenario are stubs that every strategy steps over, so they neither shadow nor are shadowed.
    static func shadowedTracks(_ tracks: [Track], configuration: MatchingConfiguration, strategy: StrategyHint) -> [LintFinding] {
        guard strategy == .repeat else { return [] }
        let canonicalizer = RequestCanonicalizer(configuration)
        var firstByKey: [RequestKey: Int] = [:]
        var findings: [LintFinding] = []
        for (position, track) in tracks.enumerated() where track.scenario == nil {
            let key = canonicalizer.key(for: track.request)
            guard let first = firstByKey[key] else {
                firstByKey[key] = position
                continue
            }
            let same = tracks[first].outcome == track.outcome
            findings.append(LintFinding(
                kind: .shadowedTrack, subject: "track \(position) (\(track.request.method) \(track.request.url))",
                message: "has the same key as track \(first), which always answers under the repeat strategy"
                    + (same ? " (same response: a duplicate)" : "; replay with --strategy fifo to play both in order")))
        }
        return findings
    }

    /// Rules after a catch-all, or after an identical unconditional rule, in the order the rule set tries them.
    /// One pass: the first unconditional catch-all and the first unconditional rule of each pattern,
    /// target and method so far are kept by key, so a file of 10,000 rules is not compared pairwise
    /// (which took seconds).
    static func unreachableRules(_ rules: [Rule]) -> [LintFinding] {
        let ordered = Rule.triedOrder(rules).map { rules[$0] }
        /// What an unconditional rule blocks: every later rule of its method (any, when `nil`), with its
        /// pattern and target, or with any when the pattern is a catch-all (`pattern` and `target` nil).
        struct Blocking: Hashable {
            var method: String?
            var pattern: String?
            var target: Rule.Target?
        }
        var firstBlocking: [Blocking: Int] = [:]
        var findings: [LintFinding] = []
        for (index, rule) in ordered.enumerated() {
            let method = rule.method?.uppercased()
            let blockers = [
                Blocking(method: nil, pattern: nil, target: nil), Blocking(method: nil, pattern: rule.pattern, target: rule.target),
            ] + (method.map { [Blocking(method: $0, pattern: nil, target: nil), Blocking(method: $0, pattern: rule.pattern, target: rule.target)] } ?? [])
            let found = blockers.compactMap { firstBlocking[$0] }.min()
            if isUnconditional(rule) {
                let blocking = catchAll.contains(rule.pattern)
                    ? Blocking(method: method, pattern: nil, target: nil) : Blocking(method: method, pattern: rule.pattern, target: rule.target)
                if firstBlocking[blocking] == nil { firstBlocking[blocking] = index }
            }
            guard let found else { continue }
            let blocker = ordered[found]
            findings.append(LintFinding(
                kind: .unreachableRule, subject: "rule \"\(rule.name)\"",
                message: "can never fire: rule \"\(blocker.name)\" (pattern \(blocker.pattern.debugDescription)) matches every request it would and is tried first"))
        }
        return findings
    }

    private static let catchAll: Set<String> = ["", ".*", "^.*", "^.*$", "^(?:.*)$", ".+", "^.+$"]

    /// Whether `rule` answers every request its method, pattern and target let through: only a rule with
    /// no query, header, cookie, path parameter, form parameter, multipart or body condition does (a `.*` rule that wants `page=2` lets every other
    /// request through), and none that waits for a scenario state. Such a rule blocks every later rule
    /// of its method (any, when it names none) with its pattern and target, or all of them when its
    /// pattern is a catch-all.
    private static func isUnconditional(_ rule: Rule) -> Bool {
        rule.query.isEmpty && rule.headers.isEmpty && rule.cookies.isEmpty && rule.body.isEmpty && rule.pathParameters.isEmpty
            && rule.formParameters.isEmpty && rule.multipart.isEmpty && rule.scenario?.requiredState == nil
    }
}
