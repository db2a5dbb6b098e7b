/// Lexical path arithmetic for paths written in workflows: they resolve
/// against the directory of the file that names them (spec section 2).
package enum FilePaths {
    /// `path` joined to `directory` unless it is absolute, then normalised
    /// (`./` and `a/../` removed), so one file has one name in cycle chains.
    ///
    /// ```swift
    /// FilePaths.resolve("../shared/_login.yaml", against: "Workflows/users")  // "Workflows/shared/_login.yaml"
    /// ```
    package static func resolve(_ path: String, against directory: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty || directory == "." { return normalize(path) }
        return normalize(directory + "/" + path)
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
