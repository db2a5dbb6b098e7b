/// Lexical path arithmetic for paths written in workflows: they resolve
/// against the directory of the file that names them (spec section 2).
/// The one place a relative path is resolved: includes, schemas, `body_file`,
/// multipart files, `tls:` files, and the command line's files (against the
/// working directory).
package enum FilePaths {
    /// The path that means standard input where a key reads a pipe (`body_file:`, multipart `file:`).
    package static let standardInput = "-"

    /// `path` joined to `directory` unless it is absolute, then normalised
    /// (`./` and `a/../` removed), so one file has one name in cycle chains and messages.
    /// `~` is not expanded (a shell does that before Courier sees a command-line path;
    /// in a workflow `~/x` is a directory named `~`). With `standardInput`, `-` stays `-`.
    ///
    /// ```swift
    /// FilePaths.resolve("../shared/_login.yaml", against: "Workflows/users")  // "Workflows/shared/_login.yaml"
    /// FilePaths.resolve("-", against: "Workflows", standardInput: true)       // "-"
    /// ```
    package static func resolve(_ path: String, against directory: String, standardInput: Bool = false) -> String {
        if standardInput && path == Self.standardInput { return path }
        if path.hasPrefix("/") || directory.isEmpty || directory == "." { return normalize(path) }
        return normalize(directory + "/" + path)
    }

    /// `path` resolved against the directory of `file` (a workflow, an included file, a schema).
    package static func resolve(_ path: String, relativeTo file: String) -> String {
        resolve(path, against: directory(of: file))
    }

    /// Removes `.` components, empty components and `name/..` pairs.
    /// Leading `..` of a relative path are kept.
    package static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The directory part (`.` for a bare file name).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The file name without directory and extension.
    package static func baseName(of path: String) -> String {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
