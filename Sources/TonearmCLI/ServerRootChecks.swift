import Foundation
import TonearmCassettes
import TonearmCommands
import TonearmServer
import TonearmWireMock

/// `tonearm lint`'s check of a WireMock root folder: what the server's own loader refuses in it, so a
/// folder lint passes is one `tonearm serve --root-dir` loads.
enum ServerRootChecks: WireMockRootServeChecks {
    static var checksRefusals: Bool { true }

    static func refusals(inRoot url: URL) -> [String] {
        WireMockRootDirectory.refusals(inRoot: url).map { "\($0)" }
    }

    static func isHonouredByServe(_ warning: ImportWarning) -> Bool {
        WireMockRootDirectory.isHonouredByServe(warning)
    }
}
