import Foundation
import Tonearm
import TonearmCassettes

/// Finds and reads the stub bundles `STUB_API_CALLS_<name>` launch arguments select.
///
/// `<name>.bundle` is looked for in the folder `TONEARM_STUB_BUNDLES` names, else in the app's resources
/// (`Bundle.main.resourceURL`: where Xcode copies a `.bundle` added to the app target; on Linux, the
/// executable's folder).
enum StubBundleSearch {
    /// The folder bundles are looked for in.
    static func root(_ environment: [String: String]) -> URL? {
        if let folder = environment[TonearmSession.EnvironmentVariable.stubBundles], !folder.isEmpty {
            return URL(fileURLWithPath: folder, isDirectory: true)
        }
        return Bundle.main.resourceURL
    }

    /// The rules of the bundle `name`, read as `StubBundleFormat` reads them.
    ///
    /// - Throws: `TonearmError/launchArgument(_:detail:)` when the bundle is not there;
    ///   `TonearmError/cassette(_:)` naming the plist, the entry and the key when it does not load.
    static func rules(ofBundle name: String, environment: [String: String]) throws(TonearmError) -> [Rule] {
        let argument = LaunchArguments.stubBundlePrefix + name
        guard let root = root(environment) else {
            throw .launchArgument(argument, detail: "no folder to look for \(name).bundle in: set \(TonearmSession.EnvironmentVariable.stubBundles)")
        }
        let bundle = root.appendingPathComponent(name + ".bundle", isDirectory: true)
        guard StubBundleFormat.ruleFile(inBundle: bundle) != nil else {
            throw .launchArgument(argument, detail: "expected \(bundle.path) holding \(StubBundleFormat.ruleFileNames.joined(separator: " or ")), found none (\(TonearmSession.EnvironmentVariable.stubBundles) names the folder bundles are looked for in)")
        }
        do throws(CassetteError) {
            return try StubBundleFormat.load(contentsOf: bundle).rules
        } catch {
            throw .cassette(error)
        }
    }
}
