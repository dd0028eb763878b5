// "The app" of the two-process test: like an app under UI test, it takes its API base URL from the
// environment (as `launchEnvironment` sets it), makes its requests, and prints what it got.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The line the UI-test article (TonearmServerTesting's catalog) shows an app reading its base URL with.
let base = ProcessInfo.processInfo.environment["API_BASE_URL"] ?? "https://api.example.com"
// A test never reaches production: without the server's base URL, this app stops.
guard base != "https://api.example.com", let baseURL = URL(string: base) else {
    FileHandle.standardError.write(Data("API_BASE_URL is not set\n".utf8))
    exit(2)
}
let session = URLSession(configuration: .ephemeral)
do {
    let (profile, profileResponse) = try await session.data(from: baseURL.appendingPathComponent("v1/profile"))
    var post = URLRequest(url: baseURL.appendingPathComponent("v1/events"))
    post.httpMethod = "POST"
    post.setValue("application/json", forHTTPHeaderField: "Content-Type")
    post.httpBody = Data(#"{"event":"launched","screen":"home"}"#.utf8)
    let (event, eventResponse) = try await session.data(for: post)
    for (response, body) in [(profileResponse, profile), (eventResponse, event)] {
        print("\((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: body, as: UTF8.self))")
    }
} catch {
    FileHandle.standardError.write(Data("request failed: \(error)\n".utf8))
    exit(1)
}
