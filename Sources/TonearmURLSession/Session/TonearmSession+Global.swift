import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TonearmSession {
    /// The session installed with ``installGlobally()``, if any.
    public static var global: TonearmSession? {
        SessionRegistry.globalSession
    }

    /// Makes this session answer requests made through `URLProtocol.registerClass`-aware loading, such
    /// as `URLSession.shared` on Apple platforms, for code you cannot hand a session to.
    ///
    /// There is one global slot per process, so tests using it must not run in parallel with each other
    /// (mark their suite `.serialized`); sessions used through ``urlSession`` need no such care.
    /// ``finish()`` uninstalls it.
    ///
    /// On Linux, swift-corelibs-foundation tries its own HTTP protocol before registered classes, so
    /// `URLSession.shared` is never intercepted there; build sessions from
    /// ``TonearmSession/globalConfiguration(from:)`` instead.
    public func installGlobally() {
        SessionRegistry.setGlobal(self)
        _ = URLProtocol.registerClass(TonearmURLProtocol.self)
    }

    /// Removes the global session, if this is it.
    public func uninstallGlobally() {
        guard SessionRegistry.globalSession === self else { return }
        SessionRegistry.setGlobal(nil)
        URLProtocol.unregisterClass(TonearmURLProtocol.self)
    }

    /// A copy of `base` whose requests go to whichever session is installed globally at the time of
    /// each request; requests pass through to the network when none is.
    public static func globalConfiguration(
        from base: URLSessionConfiguration = .default
    ) -> URLSessionConfiguration {
        let configuration = base.copy() as? URLSessionConfiguration ?? .default
        configuration.protocolClasses = [TonearmURLProtocol.self] + (configuration.protocolClasses ?? [])
        return configuration
    }
}
