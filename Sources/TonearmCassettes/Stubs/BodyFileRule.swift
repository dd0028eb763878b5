import Foundation
import Tonearm

/// A body-only file in a stub folder, and the rule its name stands for.
///
/// The name (without `.json`) is read as `[NNN-][METHOD-]path-words`: an optional order prefix of three
/// or more digits and a dash (as Tonearm's own stub files have), an optional upper-case method, then the
/// words of the path, split wherever a character is neither a letter nor a digit, as Tonearm's writer
/// spells paths. `001-GET-users-42.json`, `GET_users_42.json` and `users-42.json` all answer
/// `/users/42`; the last one any method. The words must end the path but need not start it, so
/// `users.json` also answers `/api/v1/users`: a name with more words is more specific and is tried
/// first, then one naming a method, then name order. The query and host are not compared.
struct BodyFileRule {
    /// Methods recognised at the start of a name.
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    /// What separates two words in a path: anything that is neither a letter nor a digit.
    private static let separator = #"[^\p{L}\p{N}]"#

    let file: URL
    let method: String?
    let words: [String]
    let body: [UInt8]

    init(file: URL, body: [UInt8]) {
        self.file = file
        self.body = body
        var name = file.deletingPathExtension().lastPathComponent
        let prefix = name.prefix { $0.isASCII && $0.isNumber }
        if prefix.count >= 3, name.dropFirst(prefix.count).first == "-" { name = String(name.dropFirst(prefix.count + 1)) }
        var words = name.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        if let first = words.first, Self.methods.contains(first) {
            method = first
            words.removeFirst()
        } else {
            method = nil
        }
        self.words = words
    }

    /// The rule: a path pattern ending in the words, answering 200 with the file's bytes as JSON.
    var rule: Rule {
        // Words are letters and digits only, so they need no escaping.
        let pattern = words.isEmpty
            ? "^\(Self.separator)*$" : "(?:^|\(Self.separator))" + words.joined(separator: "\(Self.separator)+") + "\(Self.separator)*$"
        return Rule(
            name: file.lastPathComponent, method: method, pattern: pattern, target: .path,
            response: Response(status: 200, headers: [HeaderField("Content-Type", "application/json")], body: body),
            bodyFile: file.path)
    }

    /// The rules of `files`, most specific first: more path words, then a method, then name order.
    static func ordered(_ files: [BodyFileRule]) -> [Rule] {
        files.enumerated().sorted { lhs, rhs in
            if lhs.element.words.count != rhs.element.words.count { return lhs.element.words.count > rhs.element.words.count }
            if (lhs.element.method != nil) != (rhs.element.method != nil) { return lhs.element.method != nil }
            return lhs.offset < rhs.offset
        }.map(\.element.rule)
    }
}
