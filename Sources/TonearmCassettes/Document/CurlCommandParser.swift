import Foundation
import Tonearm

/// Reads the request a curl command line sends, from the words ``ShellWords`` split it into.
///
/// The options and their effects are curl 7.88's (checked against the real curl by the tests); see
/// ``RequestText/parse(_:)`` for what is and is not supported.
struct CurlCommandParser {
    /// What an option does to the request.
    private enum Effect {
        case url, method, header, data(DataKind), form, get, head, user, userAgent, referer, cookie, compressed, globoff
        /// Accepted and ignored: it changes what curl does with the answer, or how it connects, not the request.
        case ignoredFlag
        /// Accepted with its value and ignored.
        case ignoredValue

        var takesValue: Bool {
            switch self {
            case .url, .method, .header, .data, .form, .user, .userAgent, .referer, .cookie, .ignoredValue: true
            case .get, .head, .compressed, .globoff, .ignoredFlag: false
            }
        }
    }

    private enum DataKind {
        /// `-d`, `--data`, `--data-ascii`: `@file` reads a file without CR and LF.
        case ascii
        /// `--data-binary`: `@file` reads a file as is.
        case binary
        /// `--data-raw`: no `@` meaning.
        case raw
        /// `--data-urlencode`.
        case urlencode
        /// `--json`: like `--data-binary`, joined to earlier data without `&`, and JSON headers.
        case json
    }

    private static let longOptions: [String: Effect] = [
        "url": .url, "request": .method, "header": .header,
        "data": .data(.ascii), "data-ascii": .data(.ascii), "data-binary": .data(.binary), "data-raw": .data(.raw),
        "data-urlencode": .data(.urlencode), "json": .data(.json),
        "form": .form, "form-string": .form,
        "get": .get, "head": .head, "user": .user, "user-agent": .userAgent, "referer": .referer, "cookie": .cookie,
        "compressed": .compressed, "globoff": .globoff,
        "silent": .ignoredFlag, "show-error": .ignoredFlag, "verbose": .ignoredFlag, "include": .ignoredFlag,
        "location": .ignoredFlag, "location-trusted": .ignoredFlag, "insecure": .ignoredFlag, "fail": .ignoredFlag,
        "fail-with-body": .ignoredFlag, "no-buffer": .ignoredFlag, "progress-bar": .ignoredFlag,
        "remote-name": .ignoredFlag, "remote-header-name": .ignoredFlag, "http1.1": .ignoredFlag, "http2": .ignoredFlag,
        "basic": .ignoredFlag, "no-progress-meter": .ignoredFlag, "raw": .ignoredFlag,
        "output": .ignoredValue, "write-out": .ignoredValue, "max-time": .ignoredValue, "connect-timeout": .ignoredValue,
        "retry": .ignoredValue, "retry-delay": .ignoredValue, "retry-max-time": .ignoredValue, "max-redirs": .ignoredValue,
        "dump-header": .ignoredValue, "cookie-jar": .ignoredValue, "resolve": .ignoredValue, "connect-to": .ignoredValue,
        "proxy": .ignoredValue, "cacert": .ignoredValue, "capath": .ignoredValue, "stderr": .ignoredValue,
        "trace": .ignoredValue, "trace-ascii": .ignoredValue,
    ]

    private static let shortOptions: [UInt8: Effect] = [
        UInt8(ascii: "X"): .method, UInt8(ascii: "H"): .header, UInt8(ascii: "d"): .data(.ascii), UInt8(ascii: "F"): .form,
        UInt8(ascii: "G"): .get, UInt8(ascii: "I"): .head, UInt8(ascii: "u"): .user, UInt8(ascii: "A"): .userAgent,
        UInt8(ascii: "e"): .referer, UInt8(ascii: "b"): .cookie, UInt8(ascii: "g"): .globoff,
        UInt8(ascii: "s"): .ignoredFlag, UInt8(ascii: "S"): .ignoredFlag, UInt8(ascii: "v"): .ignoredFlag,
        UInt8(ascii: "i"): .ignoredFlag, UInt8(ascii: "L"): .ignoredFlag, UInt8(ascii: "k"): .ignoredFlag,
        UInt8(ascii: "f"): .ignoredFlag, UInt8(ascii: "N"): .ignoredFlag, UInt8(ascii: "#"): .ignoredFlag,
        UInt8(ascii: "O"): .ignoredFlag, UInt8(ascii: "J"): .ignoredFlag, UInt8(ascii: "q"): .ignoredFlag,
        UInt8(ascii: "o"): .ignoredValue, UInt8(ascii: "w"): .ignoredValue, UInt8(ascii: "m"): .ignoredValue,
        UInt8(ascii: "D"): .ignoredValue, UInt8(ascii: "c"): .ignoredValue, UInt8(ascii: "x"): .ignoredValue,
    ]

    /// The `Accept-Encoding` curl 7.88 sends for `--compressed` when built with every decoder (as the
    /// Debian, Homebrew and Windows builds are); a build without brotli or zstd leaves those out.
    static let compressedAcceptEncoding = "deflate, gzip, br, zstd"

    private let text: PastedText
    /// What a `printf 'FORMAT' |` before the command writes to curl's standard input.
    private let standardInput: [UInt8]?

    private var url: ShellWord?
    private var method: String?
    private var headers: [ShellWord] = []
    private var data: [UInt8]?
    private var sawJSON = false
    private var get = false
    private var headOption: ShellWord?
    private var dataOption: ShellWord?
    private var user: ShellWord?
    private var userAgent: String?
    private var referer: String?
    private var cookies: [String] = []
    private var compressed = false
    private var globoff = false

    /// The request `tokens` (a curl command, possibly after `printf 'FORMAT' |`) sends.
    static func request(from tokens: [ShellToken], text: PastedText) throws(RequestTextError) -> Request {
        var words: [ShellWord] = []
        var input: [UInt8]?
        if case .word(let first) = tokens.first, first.bytes == Array("printf".utf8) {
            guard tokens.count >= 3, case .word(let format) = tokens[1], case .pipe = tokens[2] else {
                let offset = tokens.count > 2 ? Self.offset(of: tokens[2]) : first.offset
                throw text.error(at: offset, expected: "`printf 'FORMAT' | curl …` (one format, no arguments)", found: "something else")
            }
            input = try PrintfFormat.output(of: format, text: text)
            words = try Self.words(tokens.dropFirst(3), text: text)
        } else {
            words = try Self.words(tokens[...], text: text)
        }
        guard let command = words.first, command.bytes == Array("curl".utf8) else {
            throw text.error(at: words.first?.offset ?? 0, expected: "a command starting with `curl`", found: words.first.map { "`\($0.text)`" } ?? "nothing")
        }
        var parser = CurlCommandParser(text: text, standardInput: input)
        try parser.read(words.dropFirst())
        return try parser.request(commandOffset: command.offset)
    }

    private static func offset(of token: ShellToken) -> Int {
        switch token {
        case .word(let word): word.offset
        case .pipe(let offset): offset
        }
    }

    private static func words(_ tokens: ArraySlice<ShellToken>, text: PastedText) throws(RequestTextError) -> [ShellWord] {
        var words: [ShellWord] = []
        for token in tokens {
            switch token {
            case .word(let word): words.append(word)
            case .pipe(let offset):
                throw text.error(
                    at: offset, expected: "the curl command alone (`printf 'FORMAT' | curl …` is the one pipe read)",
                    found: "a pipe `|`")
            }
        }
        return words
    }

    private init(text: PastedText, standardInput: [UInt8]?) {
        self.text = text
        self.standardInput = standardInput
    }

    // MARK: Reading the options

    private mutating func read(_ arguments: ArraySlice<ShellWord>) throws(RequestTextError) {
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            let bytes = word.bytes
            if optionsEnded || bytes.count < 2 || bytes[0] != UInt8(ascii: "-") {
                try setURL(word)
                continue
            }
            if bytes == Array("--".utf8) {
                optionsEnded = true
                continue
            }
            if bytes[1] == UInt8(ascii: "-") {
                let name = String(decoding: bytes.dropFirst(2), as: UTF8.self)
                guard let effect = Self.longOptions[name] else { throw unknownOption(word.text, at: word.offset) }
                var value: ShellWord?
                if effect.takesValue {
                    guard index < arguments.endIndex else { throw missingValue(word.text, at: word.offset) }
                    value = arguments[index]
                    index += 1
                }
                try apply(effect, option: word, value: value)
                continue
            }
            // A cluster of short options: `-sSL`, `-XPOST`, `-H'Accept: x'`.
            var position = 1
            while position < bytes.count {
                let letter = bytes[position]
                let shown = "-" + String(decoding: [letter], as: UTF8.self)
                guard let effect = Self.shortOptions[letter] else {
                    throw unknownOption(letter < 0x80 ? shown : word.text, at: word.offset)
                }
                position += 1
                guard effect.takesValue else {
                    try apply(effect, option: word, value: nil)
                    continue
                }
                let value: ShellWord
                if position < bytes.count {
                    value = ShellWord(bytes: Array(bytes[position...]), offset: word.offset)
                } else {
                    guard index < arguments.endIndex else { throw missingValue(shown, at: word.offset) }
                    value = arguments[index]
                    index += 1
                }
                try apply(effect, option: word, value: value)
                break
            }
        }
    }

    private func unknownOption(_ name: String, at offset: Int) -> RequestTextError {
        text.error(at: offset, expected: "a curl option that this reader knows", found: "`\(name)`")
    }

    private func missingValue(_ name: String, at offset: Int) -> RequestTextError {
        text.error(at: offset, expected: "a value after `\(name)`", found: "the end of the command")
    }

    private mutating func setURL(_ word: ShellWord) throws(RequestTextError) {
        if url != nil {
            throw text.error(at: word.offset, expected: "one URL (this reader reads one request)", found: "a second URL `\(word.text)`")
        }
        url = word
    }

    private mutating func apply(_ effect: Effect, option: ShellWord, value: ShellWord?) throws(RequestTextError) {
        let value = value ?? ShellWord(bytes: [], offset: option.offset)
        switch effect {
        case .url: try setURL(value)
        case .method: method = value.text
        case .header:
            if value.bytes.first == UInt8(ascii: "@") {
                throw text.error(at: value.offset, expected: "a header `Name: value` (files are not read)", found: "`\(value.text)`")
            }
            headers.append(value)
        case .data(let kind): try addData(value, kind: kind, option: option)
        case .form:
            throw text.error(
                at: option.offset, expected: "a body given with -d, --data-raw, --data-binary or --json",
                found: "`\(option.text)` (multipart forms are not supported from text)")
        case .get: get = true
        case .head: headOption = option
        case .user: user = value
        case .userAgent: userAgent = value.text
        case .referer:
            var text = value.text
            if text.hasSuffix(";auto") { text.removeLast(5) }
            referer = text
        case .cookie:
            guard value.bytes.contains(UInt8(ascii: "=")) else {
                throw text.error(
                    at: value.offset, expected: "cookies `name=value` (without `=`, curl reads a cookie file)",
                    found: "`\(value.text)`")
            }
            cookies.append(value.text)
        case .compressed: compressed = true
        case .globoff: globoff = true
        case .ignoredFlag, .ignoredValue: break
        }
    }

    private mutating func addData(_ value: ShellWord, kind: DataKind, option: ShellWord) throws(RequestTextError) {
        var piece = value.bytes
        switch kind {
        case .ascii, .binary, .json:
            if piece.first == UInt8(ascii: "@") {
                piece = try readInput(value)
                if kind == .ascii { piece.removeAll { $0 == 0x0D || $0 == 0x0A } }
            }
        case .raw:
            break
        case .urlencode:
            piece = try Self.urlencoded(value, text: text)
        }
        dataOption = dataOption ?? option
        if kind == .json { sawJSON = true }
        if var joined = data {
            if kind != .json { joined.append(UInt8(ascii: "&")) }
            joined += piece
            data = joined
        } else {
            data = piece
        }
    }

    /// The bytes `@-` reads from a `printf` piped into the command; a file is refused.
    private func readInput(_ value: ShellWord) throws(RequestTextError) -> [UInt8] {
        if value.bytes == Array("@-".utf8), let standardInput { return standardInput }
        throw text.error(
            at: value.offset, expected: "the data itself (a pasted command has no files or standard input to read)",
            found: "`\(value.text)`")
    }

    /// `--data-urlencode`: `content`, `=content`, `name=content`, with `@` forms (files) refused.
    private static func urlencoded(_ value: ShellWord, text: PastedText) throws(RequestTextError) -> [UInt8] {
        let bytes = value.bytes
        guard let separator = bytes.firstIndex(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "@") }) else {
            return formEncoded(bytes[...])
        }
        if bytes[separator] == UInt8(ascii: "@") {
            throw text.error(
                at: value.offset, expected: "the data itself (a pasted command has no files to read)", found: "`\(value.text)`")
        }
        let encoded = formEncoded(bytes[(separator + 1)...])
        return separator == 0 ? encoded : Array(bytes[..<separator]) + [UInt8(ascii: "=")] + encoded
    }

    /// curl's escaping for `--data-urlencode`: unreserved bytes kept, space as `+`, the rest `%XX`.
    static func formEncoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            case UInt8(ascii: " "):
                output.append(UInt8(ascii: "+"))
            default:
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return output
    }

    // MARK: Building the request

    private func request(commandOffset: Int) throws(RequestTextError) -> Request {
        guard let url else {
            throw text.error(at: text.bytes.count, expected: "a URL", found: "the end of the command")
        }
        if let headOption, data != nil, !get, method == nil {
            throw text.error(
                at: headOption.offset, expected: "one method (curl refuses -I with data)", found: "`\(headOption.text)` beside data")
        }
        var target = try CurlURL.normalized(url, globoff: globoff, text: text)
        if get, let data {
            CurlURL.appendQuery(String(decoding: data, as: UTF8.self), to: &target)
        }
        let resolvedMethod = method ?? (headOption != nil ? "HEAD" : (data != nil && !get ? "POST" : "GET"))
        return Request(method: resolvedMethod, url: target, headers: try headerFields(), body: get ? [] : data ?? [])
    }

    private func headerFields() throws(RequestTextError) -> [HeaderField] {
        var explicit: [HeaderField] = []
        var removed: Set<String> = []
        for word in headers {
            let bytes = word.bytes
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                let name = String(decoding: bytes[..<colon], as: UTF8.self)
                let value = String(decoding: bytes[(colon + 1)...], as: UTF8.self).trimmingHTTPWhitespace
                if value.isEmpty {
                    removed.insert(name.lowercased())
                } else {
                    explicit.append(HeaderField(name, value))
                }
            } else if let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")),
                bytes[(semicolon + 1)...].allSatisfy({ $0 == 0x20 || $0 == 0x09 })
            {
                explicit.append(HeaderField(String(decoding: bytes[..<semicolon], as: UTF8.self), ""))
            }
            // Anything else is a header curl does not send.
        }
        var implied: [HeaderField] = []
        if let user {
            guard user.bytes.contains(UInt8(ascii: ":")) else {
                throw text.error(
                    at: user.offset, expected: "`user:password` (curl would prompt for the password)", found: "`\(user.text)`")
            }
            implied.append(HeaderField("Authorization", "Basic " + Data(user.bytes).base64EncodedString()))
        }
        if let userAgent, !userAgent.isEmpty { implied.append(HeaderField("User-Agent", userAgent)) }
        if let referer, !referer.isEmpty { implied.append(HeaderField("Referer", referer)) }
        if compressed { implied.append(HeaderField("Accept-Encoding", Self.compressedAcceptEncoding)) }
        if !cookies.isEmpty { implied.append(HeaderField("Cookie", cookies.joined(separator: ";"))) }
        var trailing: [HeaderField] = []
        if data != nil, !get {
            trailing.append(HeaderField("Content-Type", sawJSON ? "application/json" : "application/x-www-form-urlencoded"))
        }
        if sawJSON { trailing.append(HeaderField("Accept", "application/json")) }
        func kept(_ field: HeaderField) -> Bool {
            !removed.contains(field.name.lowercased()) && explicit.first(named: field.name) == nil
        }
        return implied.filter(kept) + explicit + trailing.filter(kept)
    }
}
