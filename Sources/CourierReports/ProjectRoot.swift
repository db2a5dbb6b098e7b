import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The directory reports name workflow files against, so that a JUnit `classname`
/// does not depend on where `courier` was started (`wf/x` from the top, `x` from `wf/`):
/// CI test history (Jenkins, GitLab) is keyed by it.
///
/// Found once per run by ``find(from:)``: the git work tree's root (the nearest
/// directory upward holding `.git`), else the working directory.
///
///     let root = ProjectRoot.find(from: FileManager.default.currentDirectoryPath)
///     root.relativePath(of: "smoke.v2.yaml")   // "wf/smoke.v2.yaml", run from wf/
package struct ProjectRoot: Sendable, Equatable {
    /// Absolute, symbolic links resolved.
    package var path: String

    package init(path: String) {
        self.path = path
    }

    /// The root for a run started in `directory`.
    ///
    /// A project file (`courier.yaml`, not yet part of the format) will come first here:
    /// its directory, when one is found upward, before the git work tree.
    package static func find(from directory: String) -> ProjectRoot {
        let start = resolved(directory) ?? directory
        var candidate = start
        while true {
            // A directory (a repository) or a file (a worktree's or submodule's `gitdir:` link).
            if access(candidate + (candidate.hasSuffix("/") ? "" : "/") + ".git", F_OK) == 0 {
                return ProjectRoot(path: candidate)
            }
            let parent = (candidate as NSString).deletingLastPathComponent
            if parent == candidate || parent.isEmpty { break }
            candidate = parent
        }
        return ProjectRoot(path: start)
    }

    /// `file` (as given on the command line, relative to the working directory, or
    /// absolute) relative to the root, `/`-separated; nil when it is no file (`courier`,
    /// a report's placeholder) or lies outside the root.
    package func relativePath(of file: String) -> String? {
        guard let real = Self.resolved(file) else { return nil }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        guard real.hasPrefix(prefix) else { return nil }
        return String(real.dropFirst(prefix.count))
    }

    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
