import Foundation
import TonearmCassettes

/// What `tonearm serve --root-dir` would refuse in a WireMock root folder, for `tonearm lint`: only the
/// server module can say (templates, transformers, proxies are the server's), and the cassette tool the
/// SwiftPM plugin runs is built without it, so the check is handed in by the executable that links it.
package protocol WireMockRootServeChecks {
    /// Whether ``refusals(inRoot:)`` checks anything (false where the server is not linked).
    static var checksRefusals: Bool { get }
    /// Each mapping the server would refuse in the root folder `url`, described.
    static func refusals(inRoot url: URL) -> [String]
    /// Whether an importer warning is about a response member serve honours (`transformers`,
    /// `delayDistribution`, …): no finding for a folder serve loads.
    static func isHonouredByServe(_ warning: ImportWarning) -> Bool
}

/// No server checks: the cassette tool's lint, which says so when it meets a WireMock root folder.
package enum NoServeChecks: WireMockRootServeChecks {
    /// False: nothing is checked.
    package static var checksRefusals: Bool { false }
    /// None: nothing is checked.
    package static func refusals(inRoot url: URL) -> [String] { [] }
    /// False: without the server, every warning stands (the note that serve was not checked says why).
    package static func isHonouredByServe(_ warning: ImportWarning) -> Bool { false }
}
