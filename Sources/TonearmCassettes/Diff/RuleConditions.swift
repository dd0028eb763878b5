import Tonearm

/// What pairs a rule with its counterpart in the other file: everything that decides which requests it
/// answers (method, pattern and target, query, header, cookie, body and multipart conditions, scenario
/// step), and nothing of what it answers, its name or its priority, which are compared instead.
struct RuleConditions: Hashable {
    private let rule: Rule

    init(_ rule: Rule) {
        var conditions = rule
        conditions.name = ""
        conditions.outcome = .response(Response())
        conditions.delay = nil
        conditions.bodyFile = nil
        conditions.priority = nil
        self.rule = conditions
    }
}
