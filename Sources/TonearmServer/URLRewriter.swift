import Foundation
import Tonearm
import TonearmReplay

/// Rewrites absolute URLs of the allowed hosts in responses so clients come back through the server:
/// `https://api.example.com/v1/x` becomes `http://127.0.0.1:PORT/api.example.com/v1/x`.
///
/// - Headers that carry URLs (`Location`, `Content-Location`, `Link`) and textual bodies are rewritten.
/// - JSON bodies are rewritten inside string values only, including URLs written with escaped slashes
///   (`https:\/\/api.example.com\/v1`), which keep their escaping.
/// - A URL is rewritten only where it starts a token: `https://other.com/?next=https://api.example.com/x`
///   is another host's URL carrying ours in its query, and is left alone; so is `api.example.com.evil.com`.
/// - gzip and deflate bodies are decoded to be rewritten and served identity (`Content-Encoding` dropped);
///   `Content-Length` is restated by the connection for the bytes sent.
///
/// Cassettes always keep the upstream's bytes: only what is served is rewritten.
struct URLRewriter {
    private struct Target {
        /// `https://api.example.com` and `https:\/\/api.example.com`, lowercased.
        var plain: [UInt8], escaped: [UInt8]
        /// `http://127.0.0.1:PORT/api.example.com` and its escaped form.
        var replacement: [UInt8], escapedReplacement: [UInt8]
    }

    private let targets: [Target]

    /// A rewriter sending URLs of `hosts` through the server at `serverURL` (`http://127.0.0.1:PORT`).
    init(hosts: [UpstreamHost], serverURL: String) {
        var seen = Set<UpstreamHost>()
        targets = hosts.filter { seen.insert($0).inserted }.map { host in
            let plain = Array(host.origin.lowercased().utf8)
            let replacement = Array("\(serverURL)/\(host.authority)".utf8)
            return Target(plain: plain, escaped: Self.escapingSlashes(plain),
                          replacement: replacement, escapedReplacement: Self.escapingSlashes(replacement))
        }
    }

    /// The headers that carry URLs.
    static let urlHeaders: Set<String> = ["location", "content-location", "link"]

    func rewrite(_ response: Response) -> Response {
        guard !targets.isEmpty else { return response }
        var result = response
        result.headers = response.headers.map { field in
            guard Self.urlHeaders.contains(field.name.lowercased()) else { return field }
            return HeaderField(field.name, String(decoding: rewriteText(Array(field.value.utf8)), as: UTF8.self))
        }
        guard let kind = BodyText(contentType: response.headers.first(named: "Content-Type")) else { return result }
        let decoded = ContentDecoding.decoded(result)
        // An encoding we cannot decode (br) is served as recorded.
        guard decoded.headers.first(named: "Content-Encoding") == nil || response.body.isEmpty else { return result }
        result = decoded
        result.body = kind == .json ? rewriteJSON(decoded.body) : rewriteText(decoded.body)
        return result
    }

    /// Which bodies are text worth rewriting.
    enum BodyText {
        case json, text

        init?(contentType: String?) {
            guard let type = contentType?.lowercased() else { return nil }
            let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if media == "application/json" || media.hasSuffix("+json") {
                self = .json
            } else if media.hasPrefix("text/") || media.hasSuffix("+xml") || media == "application/xml"
                || media == "application/javascript" || media == "application/x-www-form-urlencoded"
            {
                self = .text
            } else {
                return nil
            }
        }
    }

    /// Rewrites inside JSON string literals only; everything else is copied as is.
    func rewriteJSON(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            output.append(byte)
            index += 1
            guard byte == UInt8(ascii: "\"") else { continue }
            var end = index
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            end = min(end, bytes.count)
            rewrite(bytes, from: index, to: end, into: &output)
            index = end
        }
        return output
    }

    /// Rewrites anywhere in the text.
    func rewriteText(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        rewrite(bytes, from: 0, to: bytes.count, into: &output)
        return output
    }

    private func rewrite(_ bytes: [UInt8], from start: Int, to end: Int, into output: inout [UInt8]) {
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte | 0x20 == UInt8(ascii: "h"), index == start || !Self.isURLByte(bytes[index - 1]) {
                if let (length, replacement) = match(bytes, at: index, end: end) {
                    output.append(contentsOf: replacement)
                    index += length
                    continue
                }
            }
            output.append(byte)
            index += 1
        }
    }

    /// The length of the target origin at `index` and its replacement, when one starts there and its
    /// authority ends there too (`api.example.com` does not match `api.example.com.evil.com`).
    private func match(_ bytes: [UInt8], at index: Int, end: Int) -> (Int, [UInt8])? {
        for target in targets {
            for (pattern, replacement) in [(target.plain, target.replacement), (target.escaped, target.escapedReplacement)] {
                let after = index + pattern.count
                guard after <= end else { continue }
                var equal = true
                for offset in 0..<pattern.count where lowercasedASCII(bytes[index + offset]) != pattern[offset] {
                    equal = false
                    break
                }
                guard equal else { continue }
                if after < end, Self.continuesAuthority(bytes[after]) { continue }
                return (pattern.count, replacement)
            }
        }
        return nil
    }

    /// Bytes that can sit inside a URL, so a match right after one is inside another URL.
    private static func isURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~:/?#[]@!$&*+;=%\\".utf8.contains(byte)
        }
    }

    /// Bytes that would make the authority longer (another host or port).
    private static func continuesAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._:@".utf8.contains(byte)
        }
    }

    private static func escapingSlashes(_ bytes: [UInt8]) -> [UInt8] {
        bytes.flatMap { $0 == UInt8(ascii: "/") ? [UInt8(ascii: "\\"), $0] : [$0] }
    }
}

@inline(__always)
private func lowercasedASCII(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
}
