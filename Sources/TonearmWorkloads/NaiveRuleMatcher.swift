import Foundation
import Tonearm

/// A yardstick, not a matcher to use: answers from regex rules the naive way, trying every rule in
/// priority-then-declared order and running its expression, with no method or prefix index.
///
/// It reads the same `Rule` values, orders them like `RuleSet` (explicit priority first, then declared
/// order) and matches the same target string (`Tonearm/Rule/Target/text(of:)`), so the ratio between it and a
/// `ReplayEngine` with `.rules(_:)` measures exactly the gain of the engine's prefilter. Header and body
/// conditions are not evaluated: the rule workloads have none.
///
/// Two regular-expression engines are available, so the benchmarks can also compare them on the same
/// patterns: Swift `Regex` (what the core uses) and Foundation's `NSRegularExpression` (ICU).
public struct NaiveRuleMatcher: @unchecked Sendable {
    // @unchecked: `Regex<AnyRegexOutput>` and `NSRegularExpression` are not declared Sendable, but both
    // are immutable compiled programs here: built in `init`, never mutated, only read when matching.

    /// A regular-expression engine.
    public enum Engine: String, Sendable, Hashable, CaseIterable {
        /// The standard library's `Regex`, as the core uses.
        case swiftRegex
        /// Foundation's `NSRegularExpression`.
        case nsRegularExpression
    }

    /// A rule that cannot be compiled by the chosen engine.
    public struct CompileError: Error, Sendable, CustomStringConvertible {
        /// The rule's declared position.
        public var ruleIndex: Int
        /// The engine's message.
        public var message: String
        /// A human-readable description.
        public var description: String { "rule #\(ruleIndex): \(message)" }
    }

    private struct Entry {
        var declaredIndex: Int
        var method: String?
        var target: Rule.Target
        var swiftRegex: Regex<AnyRegexOutput>?
        var nsRegex: NSRegularExpression?
    }

    /// The engine the expressions run on.
    public let engine: Engine
    private let entries: [Entry]

    /// Compiles `rules` for `engine`.
    public init(rules: [Rule], engine: Engine = .swiftRegex) throws(CompileError) {
        self.engine = engine
        var entries: [Entry] = []
        for (offset, rule) in rules.enumerated() {
            var entry = Entry(
                declaredIndex: offset, method: rule.method?.uppercased(), target: rule.target)
            do {
                switch engine {
                case .swiftRegex: entry.swiftRegex = try Regex(rule.pattern)
                case .nsRegularExpression: entry.nsRegex = try NSRegularExpression(pattern: rule.pattern)
                }
            } catch {
                throw CompileError(ruleIndex: offset, message: "\(error)")
            }
            entries.append(entry)
        }
        // The engine's order (entries are in declared order here).
        self.entries = Rule.triedOrder(rules).map { entries[$0] }
    }

    /// The declared position of the first rule that answers `request`, trying every rule in order.
    public func firstMatch(for request: IncomingRequest) -> Int? {
        let url = request.canonical.url
        let urlTarget = Rule.Target.url.text(of: url)
        let pathTarget = url.path
        switch engine {
        case .swiftRegex:
            for entry in entries where methodAllows(entry, request) {
                let text = entry.target == .url ? urlTarget : pathTarget
                if let regex = entry.swiftRegex, text.contains(regex) { return entry.declaredIndex }
            }
        case .nsRegularExpression:
            // NSRegularExpression takes a String and bridges it on every call: part of its real cost.
            let urlRange = NSRange(location: 0, length: urlTarget.utf16.count)
            let pathRange = NSRange(location: 0, length: pathTarget.utf16.count)
            for entry in entries where methodAllows(entry, request) {
                let isURL = entry.target == .url
                if let regex = entry.nsRegex,
                    regex.firstMatch(in: isURL ? urlTarget : pathTarget, range: isURL ? urlRange : pathRange) != nil
                {
                    return entry.declaredIndex
                }
            }
        }
        return nil
    }

    private func methodAllows(_ entry: Entry, _ request: IncomingRequest) -> Bool {
        entry.method.map { $0 == request.canonical.method } ?? true
    }
}
