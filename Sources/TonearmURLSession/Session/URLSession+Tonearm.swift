import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm
import TonearmReplay

extension URLSession {
    /// The URLSession of the Tonearm session scoped to the running test (``TonearmSession/current``).
    ///
    /// Outside a scope it is a session whose every request fails with a message saying how to add one,
    /// so a missing trait shows up as a readable test failure rather than a real network call.
    public static var tonearm: URLSession {
        (TonearmSession.current ?? TonearmSession.unscoped).urlSession
    }
}

extension TonearmSession {
    /// Answers nothing, explaining why, for ``Foundation/URLSession/tonearm`` used outside a scope.
    static let unscoped = TonearmSession(replaying: .unscoped)
}
