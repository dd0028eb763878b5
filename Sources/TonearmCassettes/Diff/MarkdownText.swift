/// Recorded text put into Markdown so that it renders as the text it is, never as markup: a cassette
/// holds whatever a server sent (backticks, `<script>`, `**`, links), and a review comment must not let
/// it format, hide or link anything.
enum MarkdownText {
    /// `text` as an inline code span: fenced by one backtick more than its longest run of backticks and
    /// padded with a space each side (CommonMark strips one), control characters and line breaks
    /// escaped so the span stays on its line.
    static func code(_ text: String) -> String {
        let content = DiffWording.printable(text)
        let fence = String(repeating: "`", count: longestBacktickRun(in: content) + 1)
        return fence + " " + content + " " + fence
    }

    /// `lines` as a fenced code block, its fence longer than any run of backticks inside.
    static func block(_ lines: [String]) -> [String] {
        let content = lines.map(DiffWording.printable)
        let fence = String(repeating: "`", count: max(3, content.map(longestBacktickRun).max().map { $0 + 1 } ?? 3))
        return [fence + "text"] + content + [fence]
    }

    /// `text` as plain prose: each character that can start markup mid-line backslash-escaped (emphasis,
    /// code, links and images, HTML, entities, tables, strikethrough, math, GitHub's mentions and issue
    /// references; a colon before a word, which could open an emoji shortcode), and control characters
    /// escaped. Prose put here never starts a line, so list and heading markers need nothing.
    static func escaped(_ text: String) -> String {
        var result = ""
        let characters = Array(DiffWording.printable(text))
        for (index, character) in characters.enumerated() {
            let opensShortcode = character == ":" && index + 1 < characters.count && !characters[index + 1].isWhitespace
            if markup.contains(character) || opensShortcode { result.append("\\") }
            result.append(character)
        }
        return result
    }

    private static let markup: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "#", "|", "~", "&", "$", "@"]

    private static func longestBacktickRun(in text: String) -> Int {
        var longest = 0, current = 0
        for byte in text.utf8 {
            current = byte == UInt8(ascii: "`") ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }
}
