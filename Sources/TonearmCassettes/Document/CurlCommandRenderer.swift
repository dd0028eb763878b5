import Tonearm

/// Writes ``RequestText/curlCommand(for:)``: a request as a bash-safe curl command line.
enum CurlCommandRenderer {
    static func render(_ request: Request) -> String {
        var words: [String] = ["curl"]
        let body = request.body
        switch request.method {
        case "GET" where body.isEmpty, "POST" where !body.isEmpty: break
        case "HEAD" where body.isEmpty: words.append("--head")
        default: words += ["-X", bareOrQuoted(request.method)]
        }
        let url = absoluteURL(request)
        if url.contains(where: { "[]{}".contains($0) }) { words.append("-g") }
        words.append(quoted(Array(url.utf8)))
        for field in request.headers {
            let header = field.value.isEmpty ? field.name + ";" : field.name + ": " + field.value
            words += ["-H", quoted(Array(header.utf8))]
        }
        guard !body.isEmpty else { return words.joined(separator: " ") }
        if request.headers.first(named: "Content-Type") == nil { words += ["-H", quoted(Array("Content-Type:".utf8))] }
        if body.contains(0) {
            words += ["--data-binary", "@-"]
            return "printf " + quoted(printfFormat(body)) + " | " + words.joined(separator: " ")
        }
        words += [body.first == UInt8(ascii: "@") ? "--data-raw" : "--data-binary", quoted(body)]
        return words.joined(separator: " ")
    }

    /// The URL to give curl: the request's when absolute, else `http://` and the Host (or `localhost`).
    private static func absoluteURL(_ request: Request) -> String {
        guard request.url.hasPrefix("/") else { return request.url }
        return "http://" + (request.headers.first(named: "Host") ?? "localhost") + request.url
    }

    /// `word` unquoted when it is letters, digits, `-`, `_` and `.` only (a method, usually), else quoted.
    private static func bareOrQuoted(_ word: String) -> String {
        let bare = !word.isEmpty && word.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
        return bare ? word : quoted(Array(word.utf8))
    }

    /// `bytes` as one bash word: `'…'` when they are UTF-8 without control characters other than tab,
    /// LF and CR, else `$'…'` with `\xHH` for every other byte outside printable ASCII.
    static func quoted(_ bytes: [UInt8]) -> String {
        let plain = String(validating: bytes, as: UTF8.self) != nil
            && !bytes.contains { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }
        if plain {
            return "'" + String(decoding: bytes, as: UTF8.self).replacing("'", with: "'\\''") + "'"
        }
        var output = "$'"
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): output += "\\\\"
            case UInt8(ascii: "'"): output += "\\'"
            case 0x0A: output += "\\n"
            case 0x09: output += "\\t"
            case 0x0D: output += "\\r"
            case 0x20..<0x7F: output.unicodeScalars.append(Unicode.Scalar(byte))
            default: output += hexEscape(byte)
            }
        }
        return output + "'"
    }

    /// `bytes` as a printf format that writes them: printable ASCII as is (`%` as `%%`, `\` as `\\`),
    /// everything else `\xHH`.
    private static func printfFormat(_ bytes: [UInt8]) -> [UInt8] {
        var output = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "%"): output += "%%"
            case UInt8(ascii: "\\"): output += "\\\\"
            case 0x20..<0x7F: output.unicodeScalars.append(Unicode.Scalar(byte))
            default: output += hexEscape(byte)
            }
        }
        return Array(output.utf8)
    }

    private static func hexEscape(_ byte: UInt8) -> String {
        let hex = Array("0123456789ABCDEF")
        return "\\x" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
    }
}
