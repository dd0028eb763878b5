import Tonearm

/// One word of a shell command line after quote removal, with the byte offset where it starts.
struct ShellWord: Sendable, Hashable {
    /// The word's bytes: `$'\xff'` may make a word that is not UTF-8.
    var bytes: [UInt8]
    /// The byte offset in the pasted text of the word's first character (a quote included).
    var offset: Int

    /// The word as text; bytes that are not UTF-8 become U+FFFD.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A word, or an unquoted `|` between two commands.
enum ShellToken: Sendable, Hashable {
    case word(ShellWord)
    case pipe(offset: Int)
}

/// Splits a command line into words as bash does, for the quoting people paste.
///
/// Handled as bash does: blanks between words; single quotes; double quotes, where a backslash escapes
/// `$`, `` ` ``, `"`, `\` and a newline and is kept before anything else; ANSI-C `$'…'` (what Chrome's
/// "Copy as cURL (bash)" writes), with `\n`, `\t`, `\xHH`, `\uHHHH`, octal and the other escapes; a
/// backslash outside quotes, which keeps the next character or, before a newline, joins the lines; and
/// `#` starting a word, a comment to the end of the line. A NUL from `$'\0'` ends the word, as it would
/// end the C string a program receives. Unlike bash, a newline that is not escaped separates words
/// rather than commands, so a command pasted over several lines without backslashes still reads as one.
///
/// What only a running shell could know is refused rather than guessed: parameter and command
/// expansion (`$TOKEN`, `${…}`, `$(…)`, backticks) and the operators `&`, `;`, `<`, `>`, `(` and `)`.
/// A `|` becomes ``ShellToken/pipe(offset:)``; ``RequestText`` accepts it after `printf`, the form
/// ``RequestText/curlCommand(for:)`` writes for a body with a NUL byte.
enum ShellWords {
    static func split(_ text: PastedText) throws(RequestTextError) -> [ShellToken] {
        var splitter = Splitter(text: text)
        try splitter.run()
        return splitter.tokens
    }

    private struct Splitter {
        let text: PastedText
        var bytes: [UInt8] { text.bytes }
        var tokens: [ShellToken] = []
        var word: [UInt8] = []
        var wordStart: Int?
        var index = 0

        init(text: PastedText) {
            self.text = text
        }

        mutating func run() throws(RequestTextError) {
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    endWord()
                    index += 1
                case UInt8(ascii: "\\"):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                        index += 2
                    } else if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"), bytes[index + 2] == UInt8(ascii: "\n") {
                        index += 3
                    } else {
                        startWord()
                        if index + 1 < bytes.count { word.append(bytes[index + 1]) }
                        index += 2
                    }
                case UInt8(ascii: "'"):
                    startWord()
                    try singleQuoted()
                case UInt8(ascii: "\""):
                    startWord()
                    try doubleQuoted()
                case UInt8(ascii: "$"):
                    startWord()
                    let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                    if next == UInt8(ascii: "'") {
                        try ansiQuoted()
                    } else if next == UInt8(ascii: "\"") {
                        index += 1
                        try doubleQuoted()
                    } else {
                        try refuseExpansion()
                        word.append(byte)
                        index += 1
                    }
                case UInt8(ascii: "`"):
                    throw text.error(
                        at: index, expected: "a value written out (paste the command's output in its place)",
                        found: "a command substitution with backticks")
                case UInt8(ascii: "#") where wordStart == nil:
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                case UInt8(ascii: "|"):
                    endWord()
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "|") {
                        throw operatorError("||")
                    }
                    tokens.append(.pipe(offset: index))
                    index += 1
                case UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"):
                    throw operatorError(String(UnicodeScalar(byte)))
                default:
                    startWord()
                    word.append(byte)
                    index += 1
                }
            }
            endWord()
        }

        func operatorError(_ name: String) -> RequestTextError {
            text.error(
                at: index, expected: "the curl command alone (quote the character if it belongs to a value)",
                found: "the shell operator `\(name)`")
        }

        mutating func startWord() {
            if wordStart == nil { wordStart = index }
        }

        mutating func endWord() {
            guard let start = wordStart else { return }
            // The C string a program receives ends at the first NUL.
            if let nul = word.firstIndex(of: 0) { word.removeSubrange(nul...) }
            tokens.append(.word(ShellWord(bytes: word, offset: start)))
            word = []
            wordStart = nil
        }

        /// Throws when the `$` at `index` starts a parameter or command expansion.
        func refuseExpansion() throws(RequestTextError) {
            guard index + 1 < bytes.count else { return }
            let next = bytes[index + 1]
            let isName = next == UInt8(ascii: "_") || (next | 0x20 >= UInt8(ascii: "a") && next | 0x20 <= UInt8(ascii: "z"))
            let isSpecial = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) || "{(?!#@*$-".utf8.contains(next)
            guard isName || isSpecial else { return }
            var end = index + 1
            if isName {
                while end < bytes.count, bytes[end] == UInt8(ascii: "_") || Self.isAlphanumeric(bytes[end]) { end += 1 }
            } else {
                end += 1
            }
            let shown = String(decoding: bytes[index..<end], as: UTF8.self)
            throw text.error(
                at: index, expected: "a value written out (only your shell can expand it; put its value in its place)",
                found: "the shell expansion `\(shown)\(isName || end - index > 2 ? "" : "…")`")
        }

        static func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        }

        func unterminated(_ quote: String, openedAt offset: Int) -> RequestTextError {
            let (line, column) = text.lineColumn(of: offset)
            return text.error(
                at: bytes.count, expected: "a closing \(quote) for the one at line \(line), column \(column)",
                found: "the end of the text")
        }

        mutating func singleQuoted() throws(RequestTextError) {
            let open = index
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "'") {
                word.append(bytes[index])
                index += 1
            }
            guard index < bytes.count else { throw unterminated("`'`", openedAt: open) }
            index += 1
        }

        mutating func doubleQuoted() throws(RequestTextError) {
            let open = index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\") where index + 1 < bytes.count:
                    let next = bytes[index + 1]
                    if next == UInt8(ascii: "\n") {
                        // A joined line.
                    } else if "$`\"\\".utf8.contains(next) {
                        word.append(next)
                    } else {
                        word.append(byte)
                        word.append(next)
                    }
                    index += 2
                case UInt8(ascii: "$"):
                    try refuseExpansion()
                    word.append(byte)
                    index += 1
                case UInt8(ascii: "`"):
                    throw text.error(
                        at: index, expected: "a value written out (paste the command's output in its place)",
                        found: "a command substitution with backticks")
                default:
                    word.append(byte)
                    index += 1
                }
            }
            throw unterminated("`\"`", openedAt: open)
        }

        /// `$'…'`, from the `$`.
        mutating func ansiQuoted() throws(RequestTextError) {
            let open = index
            index += 2
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "'") {
                    index += 1
                    return
                }
                guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                    word.append(byte)
                    index += 1
                    continue
                }
                let escape = bytes[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "a"): word.append(0x07)
                case UInt8(ascii: "b"): word.append(0x08)
                case UInt8(ascii: "e"), UInt8(ascii: "E"): word.append(0x1B)
                case UInt8(ascii: "f"): word.append(0x0C)
                case UInt8(ascii: "n"): word.append(0x0A)
                case UInt8(ascii: "r"): word.append(0x0D)
                case UInt8(ascii: "t"): word.append(0x09)
                case UInt8(ascii: "v"): word.append(0x0B)
                case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "?"): word.append(escape)
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = UInt32(escape - UInt8(ascii: "0"))
                    var digits = 1
                    while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                        value = value * 8 + UInt32(bytes[index] - UInt8(ascii: "0"))
                        digits += 1
                        index += 1
                    }
                    word.append(UInt8(truncatingIfNeeded: value))
                case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
                    let most = escape == UInt8(ascii: "x") ? 2 : escape == UInt8(ascii: "u") ? 4 : 8
                    var value: UInt32 = 0
                    var digits = 0
                    while digits < most, index < bytes.count, let digit = URLByteClass.hexValue(bytes[index]) {
                        value = value << 4 | UInt32(digit)
                        digits += 1
                        index += 1
                    }
                    if digits == 0 {
                        word.append(UInt8(ascii: "\\"))
                        word.append(escape)
                    } else if escape == UInt8(ascii: "x") {
                        word.append(UInt8(truncatingIfNeeded: value))
                    } else if let scalar = Unicode.Scalar(value) {
                        word.append(contentsOf: Array(String(Character(scalar)).utf8))
                    } else {
                        throw text.error(
                            at: index - digits - 2, expected: "a Unicode scalar value in `\\u` or `\\U`",
                            found: "U+\(String(value, radix: 16, uppercase: true))")
                    }
                case UInt8(ascii: "c") where index < bytes.count:
                    word.append(bytes[index] & 0x1F)
                    index += 1
                default:
                    word.append(byte)
                    word.append(escape)
                }
            }
            throw unterminated("`'`", openedAt: open)
        }
    }
}
