import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm
import TonearmReplay

extension TonearmSession {
    /// A replay-only session answering from inline stubs; anything else fails with the miss report.
    ///
    /// ```swift
    /// let tonearm = try TonearmSession.stubs([.get("https://api.example.com/me", .json(#"{"id":1}"#))])
    /// let (data, _) = try await tonearm.urlSession.data(from: URL(string: "https://api.example.com/me")!)
    /// ```
    public static func stubs(
        _ stubs: [Stub], configuration: URLSessionConfiguration = .ephemeral
    ) throws(TonearmError) -> TonearmSession {
        TonearmSession(engine: try StubCompiler.engine(stubs), source: "inline stubs", configuration: configuration)
    }
}
