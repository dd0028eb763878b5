import Foundation

/// A folder that paths named by a document or a client must stay inside: rule-file bodies, WireMock
/// `__files` and `mappings`, cassettes switched to through the server's control API.
///
/// A path is checked after `..` and every symbolic link in it are resolved, because a check of the
/// text alone is bypassed by a link inside the folder pointing out of it. Callers use the resolved URL
/// this returns, never the path they were given, so what is checked is what is opened.
package struct FolderConfinement: Sendable {
    /// The folder, its own symbolic links resolved (`/tmp` is `/private/tmp` on macOS).
    package let root: URL

    /// Confines paths to `root`.
    package init(root: URL) {
        self.root = URL(fileURLWithPath: Self.resolvingLinks(root.standardizedFileURL.path) ?? root.standardizedFileURL.path, isDirectory: true)
    }

    /// Why a path was refused.
    package struct Escape: Error, Sendable, CustomStringConvertible {
        /// The path as given.
        package var path: String
        /// What it resolves to, when it resolves.
        package var resolved: String?
        /// The confining folder.
        package var root: String

        /// `"…" resolves to … outside …`, or says the path ends in a link to nothing.
        package var description: String {
            guard let resolved else {
                return "\(path.debugDescription), which passes through a symbolic link to nothing (or to what cannot be read), so where it leads cannot be checked"
            }
            return "\(path.debugDescription), which resolves to \(resolved) outside \(root)"
        }
    }

    /// `path` (relative to `base`, else to the root; or absolute) with `..` and symbolic links resolved,
    /// when that lies inside the root. The path need not exist: its missing tail is kept as written.
    package func resolve(_ path: String, relativeTo base: URL? = nil) throws(Escape) -> URL {
        let joined = URL(fileURLWithPath: path, relativeTo: base ?? root).standardizedFileURL.path
        guard let resolved = Self.resolvingLinks(joined) else { throw Escape(path: path, resolved: nil, root: root.path) }
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard resolved.hasPrefix(rootPath) else { throw Escape(path: path, resolved: resolved, root: root.path) }
        return URL(fileURLWithPath: resolved)
    }

    /// `path` (absolute, without `..`) with its symbolic links resolved by the system, the part that
    /// does not exist yet appended as written; `nil` when a component is a link to nothing (writing
    /// through it would create its target, wherever that is).
    private static func resolvingLinks(_ path: String) -> String? {
        var existing = path
        var missing: [String] = []
        while true {
            if let real = realpath(existing, nil) {
                defer { free(real) }
                var result = String(cString: real)
                for component in missing.reversed() { result += (result.hasSuffix("/") ? "" : "/") + component }
                return result
            }
            var information = stat()
            if lstat(existing, &information) == 0 { return nil }
            let parent = (existing as NSString).deletingLastPathComponent
            guard parent != existing, !parent.isEmpty else { return path }
            missing.append((existing as NSString).lastPathComponent)
            existing = parent
        }
    }
}
