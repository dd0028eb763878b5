import Tonearm

/// A request written as text: a curl command or a raw HTTP/1.1 request read into a `Tonearm/Request`,
/// and a request written back as a curl command.
///
/// What the inspector's "Explain" box and "Copy as curl" button use: paste what Chrome's DevTools
/// "Copy as cURL (bash)" gives, a command from an API's documentation, or a request as it went over the
/// wire, and see which recording answers it.
public enum RequestText {
    /// Reads a curl command line or a raw HTTP request.
    ///
    /// Text whose first word is `curl` is read as a bash command line; anything else as an HTTP/1.x
    /// request (`METHOD SP target SP HTTP/x.y`, header lines, an empty line, the body).
    ///
    /// **curl.** The words are split as bash splits them (single and double quotes, `$'…'`, backslashes,
    /// backslash-newline continuations; see the notes below for what a shell would expand), then read
    /// as curl 7.88 reads its options:
    /// - the URL, positional or `--url` (one; `http://` added when it has no scheme, the fragment dropped);
    /// - `-X`/`--request` (the method, always winning), `-I`/`--head`, `-G`/`--get`;
    /// - `-H`/`--header`, repeated: `Name: value`; `Name;` for an empty value; `Name:` takes away a
    ///   header an option below would add; a word with neither `:` nor `;` is not sent, as by curl;
    /// - `-d`/`--data`, `--data-ascii`, `--data-raw`, `--data-binary`, `--data-urlencode` (encoded as curl
    ///   does: unreserved bytes kept, space as `+`, the rest `%XX`), joined with `&`, and `--json`, joined
    ///   without one. Data makes the method POST (GET with `-G`, which appends it to the query instead)
    ///   and adds `Content-Type: application/x-www-form-urlencoded`, or `application/json` and
    ///   `Accept: application/json` with `--json`. Data is taken byte for byte: curl strips CR and LF only
    ///   from a *file* read with `-d @file`;
    /// - `-u`/`--user user:password` (`Authorization: Basic`), `-A`/`--user-agent`, `-e`/`--referer`,
    ///   `-b`/`--cookie name=value` (several joined with `;`, as curl does), `--compressed`
    ///   (`Accept-Encoding: deflate, gzip, br, zstd`, what a curl built with every decoder sends);
    /// - options that change what curl does with the answer or how it connects, not the request, are
    ///   read and ignored: `-s -S -v -i -L -k -f -g -N -o -w -m -D -c -x`, `--silent`, `--location`,
    ///   `--insecure`, `--output`, `--max-time`, `--connect-timeout` and the like. Short options combine
    ///   (`-sSL`) and take their value attached (`-XPOST`, `-H'Accept: */*'`); `--name=value` is not a
    ///   curl syntax and is refused, as curl does.
    ///
    /// The request holds what the command states and what its options imply, **not** the headers curl
    /// adds by itself (`Host`, `User-Agent: curl/…`, `Accept: */*`, `Content-Length`): a parsed request is
    /// matched against recordings, where curl's own defaults would be noise.
    ///
    /// Refused, with an error naming the word: an unknown option; `-F`/`--form` (multipart is not
    /// supported from text); data, headers or cookies read from a file (`@file`, `-b file`) or standard
    /// input, since a pasted command has neither (except `printf 'FORMAT' | curl … --data-binary @-`, the
    /// form ``curlCommand(for:)`` writes for a body holding a NUL byte); `-u user` without a password;
    /// shell expansions (`$TOKEN`, `$(…)`, backticks) and operators other than that one pipe; URL globs
    /// (`{a,b}`, `[1-3]`) without `-g`; a scheme other than http and https.
    ///
    /// **Raw HTTP.** Lines end in CRLF or LF; header fields are kept as written; the body is the rest of
    /// the text, `Content-Length` bytes of it when that field is given (fewer is an error; only line ends
    /// may follow), and decoded when `Transfer-Encoding` is chunked. The URL is the target when it is
    /// absolute, else `http://` + `Host` + target: the text does not say whether TLS was used, so
    /// `https` is never guessed, not even for port 443. An origin-form target without `Host` is an error.
    ///
    /// - Throws: ``RequestTextError`` with the line and column of the problem.
    public static func parse(_ text: String) throws(RequestTextError) -> Request {
        let pasted = PastedText(text)
        let bytes = pasted.bytes
        var start = 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            throw pasted.error(at: start, expected: "a curl command or an HTTP request", found: "nothing")
        }
        let firstWord = bytes[start...].prefix { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if firstWord.elementsEqual("curl".utf8) || firstWord.elementsEqual("printf".utf8) {
            return try CurlCommandParser.request(from: try ShellWords.split(pasted), text: pasted)
        }
        return try RawHTTPRequestParser.request(from: pasted, start: start)
    }

    /// `request` as one bash command line that makes curl send it: method, URL, headers and body bytes.
    ///
    /// `curl [-X METHOD | --head] 'URL' -H 'Name: value' … --data-binary 'body'`, each word in single
    /// quotes (a `'` written `'\''`). `-X` is left out for GET without a body and for POST with one;
    /// HEAD is `--head` (with `-X HEAD` curl would wait for a body that never comes). A header with an
    /// empty value is `-H 'Name;'`. A body that is not UTF-8 or holds control characters other than
    /// tab, LF and CR is written `$'…'` with `\xHH` escapes; one holding a NUL byte, which no argument
    /// can carry, is piped in: `printf '…' | curl … --data-binary @-`. A body without a `Content-Type`
    /// gets `-H 'Content-Type:'`, which stops curl adding its form type. A body starting with `@` is given
    /// with `--data-raw`, which reads no file. `-g` is added when the URL holds `[`, `]`, `{` or `}`.
    ///
    /// ``parse(_:)`` reads the command back into `request` when the URL is absolute http or https with a
    /// path and no fragment, header values have no surrounding blanks, and names hold no `:`, `;` or blank.
    /// A URL that is only a target (`/path`) is written with `http://` and the `Host` field (or
    /// `localhost`) in front.
    public static func curlCommand(for request: Request) -> String {
        CurlCommandRenderer.render(request)
    }
}
