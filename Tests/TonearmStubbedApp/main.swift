// "The app" of the team-format two-process tests: like an app under UI test, it calls
// `installFromEnvironment()` (reading the launch arguments and environment its test set), makes the
// requests listed in APP_REQUESTS ("METHOD URL" per line), and prints one JSON line per answer.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TonearmURLSession

/// Writes one JSON object as a line on standard output.
func report(_ fields: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return }
    print(String(decoding: data, as: UTF8.self))
}

do {
    try TonearmSession.installFromEnvironment()
} catch {
    FileHandle.standardError.write(Data("tonearm: \(error)\n".utf8))
    exit(3)
}
// On Linux URLSession.shared is never intercepted, so the app builds its session from the global
// configuration, as docs/team-formats.md tells apps to.
let session = URLSession(configuration: TonearmSession.globalConfiguration(from: .ephemeral))
let lines = (ProcessInfo.processInfo.environment["APP_REQUESTS"] ?? "").split(separator: "\n")
for line in lines {
    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, let url = URL(string: parts[1]) else {
        FileHandle.standardError.write(Data("not a request line: \(line)\n".utf8))
        exit(2)
    }
    var request = URLRequest(url: url)
    request.httpMethod = parts[0]
    do {
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        report([
            "request": String(line), "status": http?.statusCode ?? 0,
            "contentType": http?.value(forHTTPHeaderField: "Content-Type") ?? "",
            "body": String(decoding: data, as: UTF8.self),
        ])
    } catch {
        report(["request": String(line), "error": (error as? URLError)?.code.rawValue ?? -1])
    }
}
