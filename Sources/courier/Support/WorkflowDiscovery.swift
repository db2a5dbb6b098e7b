import CourierDiagnostics
import Foundation

/// Finds workflow files: files named on the command line, and every `.yaml`/`.yml`
/// below a directory, in path order, skipping `_fragments` meant for `include`.
///
/// File names are bytes: a name that is not valid UTF-8 is found by `readdir` and opened by
/// its bytes (see `BoundedFileReader.displayPath(forBytes:)`); it is shown with replacement
/// characters. Command-line paths come from the raw `argv` for the same reason
/// (`CommandLine.arguments` has already replaced the invalid bytes).
enum WorkflowDiscovery {
    static func files(in paths: [String]) throws(UsageError) -> [String] {
        registerRawArguments()
        var found: [String] = []
        for path in paths.isEmpty ? ["."] : paths {
            switch BoundedFileReader.type(of: path) {
            case .failure(let error) where error.reason == .missing:
                throw UsageError("no such file or directory: '\(path)'")
            case .success(.directory):
                var below: [String] = []
                walk(directory: path, relative: "", into: &below)
                let prefix = path == "." ? "" : (path.hasSuffix("/") ? path : path + "/")
                found += below.sorted().map { prefix + $0 }
            default:
                // Files, and anything else named explicitly: loading says what is wrong with it.
                found.append(path)
            }
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0).inserted }
    }

    /// Remembers the bytes of every argument that is not valid UTF-8 under the repaired
    /// string `CommandLine.arguments` holds, so that string opens the real file.
    private static func registerRawArguments() {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map { UInt8(bitPattern: $0) }
            _ = BoundedFileReader.displayPath(forBytes: bytes)
        }
    }

    /// Appends the workflow files below `directory` (paths relative to the walk's root).
    /// Hidden entries (`.git`, `.build`) are skipped; symbolic links to directories are not
    /// followed (no cycles), links to files are.
    private static func walk(directory: String, relative: String, into found: inout [String]) {
        // Paths as `files(in:)` returns them: `a/b.yaml` below ".", `dir/a/b.yaml` below "dir".
        let rootPrefix = directory == "." ? "" : (directory.hasSuffix("/") ? directory : directory + "/")
        let here = relative.isEmpty ? directory : rootPrefix + relative
        guard let stream = BoundedFileReader.withSystemPath(here, { opendir($0) }) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let nameBytes: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            guard let first = nameBytes.first, first != UInt8(ascii: ".") else { continue }
            let name = String(decoding: nameBytes, as: UTF8.self)
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            let childPath = rootPrefix + childRelative
            if String(validating: nameBytes, as: UTF8.self) == nil {
                // Register the child's full bytes: its parent's (real) bytes plus its own name.
                let parent = rootPrefix + relative
                var bytes = parent.isEmpty ? [] : systemBytes(parent)
                if !bytes.isEmpty && bytes.last != UInt8(ascii: "/") { bytes.append(UInt8(ascii: "/")) }
                _ = BoundedFileReader.displayPath(forBytes: bytes + nameBytes)
            }
            var info = stat()
            let isLink = BoundedFileReader.withSystemPath(childPath, { lstat($0, &info) }) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
            guard case .success(let type) = BoundedFileReader.type(of: childPath) else { continue }
            if type == .directory {
                if !isLink { walk(directory: directory, relative: childRelative, into: &found) }
            } else if (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) && !name.hasPrefix("_") {
                found.append(childRelative)
            }
        }
    }

    /// The bytes the system sees for `path` (registered raw bytes, else UTF-8).
    private static func systemBytes(_ path: String) -> [UInt8] {
        BoundedFileReader.withSystemPath(path) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
            .map { UInt8(bitPattern: $0) }
    }
}
