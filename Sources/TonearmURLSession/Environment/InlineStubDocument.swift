import Foundation
import Tonearm
import TonearmCassettes
import TonearmReplay

/// `TONEARM_STUBS`: stubs in the one stub schema (``StubSchema``, docs/cassette-format.md "Stub
/// schema"), where `url` is one exact URL and `pattern` a regular expression.
///
/// ```json
/// [
///   {"method": "GET", "url": "https://api.example.com/me", "json": {"name": "Ada"}},
///   {"method": "GET", "url": "https://api.example.com/feed", "error": "notConnectedToInternet"},
///   {"pattern": "^https://api\\.example\\.com/items/\\d+$", "status": 404, "body": "gone",
///    "headers": {"Retry-After": "5"}, "delayMilliseconds": 50}
/// ]
/// ```
/// Entries with the same method and URL form a queue, answered in order. JSON bodies are replied as
/// written (white space aside): numbers are never rounded.
enum InlineStubDocument {
    /// The tracks and rules in `json`.
    ///
    /// - Throws: `TonearmError/environment(variable:detail:)` whose detail reads like
    ///   `TONEARM_STUBS:1:42: at $[0].status: expected an integer, found a string`.
    static func decode(_ json: String, variable: String) throws(TonearmError) -> StubSchema.Stubs {
        do throws(CassetteError) {
            return try StubSchema.decode(
                Array(json.utf8), syntax: .json, file: variable, options: StubSchema.Options(urlMeaning: .exact))
        } catch {
            throw .environment(variable: variable, detail: error.description)
        }
    }
}
