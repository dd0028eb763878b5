import Tonearm

/// JSON keyed by absolute URL in the environment, opted into with `TONEARM_URL_STUBS=1`: every entry
/// whose name is an `http`/`https` URL and whose value is JSON answers GET requests for that URL with
/// 200, the value (as written) as body and `Content-Type: application/json`.
///
/// Each is an exact track, so the engine matches it as any track: query parameters in any order,
/// percent-encoding and default ports normalised. An environment entry's name ends at its first `=`,
/// so a URL whose query holds `=` cannot be a name.
enum URLKeyedStubs {
    /// The tracks, in name order so that loading is deterministic.
    ///
    /// - Throws: `TonearmError/environment(variable:detail:)` naming the variable (the URL) whose
    ///   value is not JSON, with the line, column and what was expected.
    static func tracks(from environment: [String: String]) throws(TonearmError) -> [Track] {
        var tracks: [Track] = []
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where isHTTPURL(name) {
            let body = Array(value.utf8)
            do throws(JSONSyntaxError) {
                _ = try JSONValue(parsing: body)
            } catch {
                throw .environment(
                    variable: name,
                    detail: "\(TonearmSession.EnvironmentVariable.urlStubs) is set, so its value must be a JSON body: \(error)")
            }
            tracks.append(Track(
                request: Request(method: "GET", url: name),
                response: Response(status: 200, headers: [HeaderField("Content-Type", "application/json")], body: body),
                name: name))
        }
        return tracks
    }

    /// Whether `name` is an absolute `http`/`https` URL with a host.
    static func isHTTPURL(_ name: String) -> Bool {
        let lowered = name.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return false }
        return !NormalizedURL(name).host.isEmpty
    }
}
