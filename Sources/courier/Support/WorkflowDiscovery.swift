import CourierDiagnostics
import Foundation

/// Finds workflow files: files named on the command line, and every `.yaml`/`.yml`
/// below a directory, in path order, skipping `_fragments` meant for `include`, hidden
/// entries, and what a `.courierignore` or `--exclude GLOB` excludes (see ``IgnoreRules``).
///
/// A file named on the command line is always a workflow; one found in a directory is a
/// candidate that loading judges by its top-level keys (see `WorkflowSniffer`).
///
/// File names are bytes: a name that is not valid UTF-8 is found by `readdir` and opened by
/// its bytes (see `BoundedFileReader.displayPath(forBytes:)`); it is shown with replacement
/// characters. Command-line paths come from the raw `argv` for the same reason
/// (`CommandLine.arguments` has already replaced the invalid bytes).
enum WorkflowDiscovery {
    /// One file to load.
    struct Candidate: Hashable {
        var path: String
        /// Named on the command line (always a workflow), or found in a directory.
        var named: Bool
        /// What picks its `--shard`: the path relative to the directory it was found in, or
        /// the path as named (without a leading `./`), so the slice does not depend on where
        /// the directory is (`courier run suite` and `cd suite && courier run`).
        var shardKey: String

        init(path: String, named: Bool, shardKey: String? = nil) {
            self.path = path
            self.named = named
            self.shardKey = shardKey ?? Candidate.withoutDotSlash(path)
        }

        private static func withoutDotSlash(_ path: String) -> String {
            var key = Substring(path)
            while key.hasPrefix("./") { key = key.dropFirst(2).drop { $0 == "/" } }
            return String(key)
        }
    }

    /// What a search found.
    struct Found {
        var candidates: [Candidate] = []
        /// Directories searched, as given (for "nothing found in …").
        var directories: [String] = []
        /// YAML files and directories left out by a `.courierignore` or `--exclude`.
        var ignored = 0
    }

    /// The candidates below `paths` (default `.`); `exclude` holds `--exclude` globs, relative
    /// to each directory given.
    static func find(_ paths: [String], exclude: [String]) throws(UsageError) -> Found {
        registerRawArguments()
        var found = Found()
        let excluded = IgnoreRules(rules: exclude.compactMap(IgnoreRules.rule))
        for path in paths.isEmpty ? ["."] : paths {
            switch BoundedFileReader.type(of: path) {
            case .failure(let error) where error.reason == .missing:
                throw UsageError("no such file or directory: '\(path)'")
            case .success(.directory):
                var walk = Walk(root: path, excluded: excluded)
                try walk.directory(relative: "", inherited: [])
                let prefix = path == "." ? "" : (path.hasSuffix("/") ? path : path + "/")
                found.candidates += walk.found.sorted().map { Candidate(path: prefix + $0, named: false, shardKey: $0) }
                found.directories.append(path)
                found.ignored += walk.ignored
            default:
                // Files, and anything else named explicitly: loading says what is wrong with it.
                found.candidates.append(Candidate(path: path, named: true))
            }
        }
        var seen = Set<String>()
        found.candidates = found.candidates.filter { seen.insert($0.path).inserted }
        return found
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

    /// One directory walk: the ignore files met on the way apply below their directory.
    private struct Walk {
        let root: String
        let excluded: IgnoreRules
        var found: [String] = []
        var ignored = 0

        init(root: String, excluded: IgnoreRules) {
            self.root = root
            self.excluded = excluded
        }

        /// Paths as `find` returns them: `a/b.yaml` below ".", `dir/a/b.yaml` below "dir".
        var rootPrefix: String { root == "." ? "" : (root.hasSuffix("/") ? root : root + "/") }

        /// Whether `relative` is left out: the deepest ignore file that decides wins,
        /// then `--exclude` (the command line has the last word).
        func isIgnored(_ relative: String, isDirectory: Bool, by ignoreFiles: [(base: String, rules: IgnoreRules)]) -> Bool {
            var ignored = false
            for (base, rules) in ignoreFiles {
                let below = base.isEmpty ? relative : String(relative.dropFirst(base.count + 1))
                if let decision = rules.decision(for: below, isDirectory: isDirectory) { ignored = decision }
            }
            if let decision = excluded.decision(for: relative, isDirectory: isDirectory) { ignored = decision }
            return ignored
        }

        /// Appends the workflow files below `relative` (paths relative to the walk's root).
        /// Hidden entries (`.git`, `.build`) are skipped; symbolic links to directories are not
        /// followed (no cycles), links to files are.
        mutating func directory(relative: String, inherited: [(base: String, rules: IgnoreRules)]) throws(UsageError) {
            let here = relative.isEmpty ? root : rootPrefix + relative
            var ignoreFiles = inherited
            let ignorePath = (here.hasSuffix("/") ? here : here + "/") + ".courierignore"
            if case .success(let type) = BoundedFileReader.type(of: ignorePath), type != .directory {
                do throws(FileReadError) {
                    let bytes = try BoundedFileReader.read(ignorePath, limit: 1 << 20, what: ".courierignore files",
                                                           deadline: .now + BoundedFileReader.sourcePipeDeadline)
                    ignoreFiles.append((relative, IgnoreRules(parsing: String(decoding: bytes, as: UTF8.self))))
                } catch {
                    throw UsageError("cannot read '\(ignorePath)': \(error.reasonText)")
                }
            }
            guard let stream = BoundedFileReader.withSystemPath(here, { opendir($0) }) else { return }
            defer { closedir(stream) }
            var subdirectories: [String] = []
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
                    var bytes = parent.isEmpty ? [] : WorkflowDiscovery.systemBytes(parent)
                    if !bytes.isEmpty && bytes.last != UInt8(ascii: "/") { bytes.append(UInt8(ascii: "/")) }
                    _ = BoundedFileReader.displayPath(forBytes: bytes + nameBytes)
                }
                var info = stat()
                let isLink = BoundedFileReader.withSystemPath(childPath, { lstat($0, &info) }) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
                guard case .success(let type) = BoundedFileReader.type(of: childPath) else { continue }
                if type == .directory {
                    guard !isLink else { continue }
                    if isIgnored(childRelative, isDirectory: true, by: ignoreFiles) {
                        ignored += 1
                    } else {
                        subdirectories.append(childRelative)
                    }
                } else if (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) && !name.hasPrefix("_") {
                    if isIgnored(childRelative, isDirectory: false, by: ignoreFiles) {
                        ignored += 1
                    } else {
                        found.append(childRelative)
                    }
                }
            }
            // After the loop: the stream stays open only while this directory is read.
            for subdirectory in subdirectories {
                try directory(relative: subdirectory, inherited: ignoreFiles)
            }
        }
    }

    /// The bytes the system sees for `path` (registered raw bytes, else UTF-8).
    fileprivate static func systemBytes(_ path: String) -> [UInt8] {
        BoundedFileReader.withSystemPath(path) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
            .map { UInt8(bitPattern: $0) }
    }
}
