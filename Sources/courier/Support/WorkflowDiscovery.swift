import Foundation

/// Finds workflow files: files named on the command line, and every `.yaml`/`.yml`
/// below a directory, in path order, skipping `_fragments` meant for `include`.
enum WorkflowDiscovery {
    static func files(in paths: [String]) throws(UsageError) -> [String] {
        var found: [String] = []
        let manager = FileManager.default
        for path in paths.isEmpty ? ["."] : paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw UsageError("no such file or directory: '\(path)'")
            }
            guard isDirectory.boolValue else {
                found.append(path)
                continue
            }
            var below: [String] = []
            if let enumerator = manager.enumerator(atPath: path) {
                while let relative = enumerator.nextObject() as? String {
                    let name = (relative as NSString).lastPathComponent
                    // Hidden folders (.git, .build) hold no workflows of the user's.
                    if name.hasPrefix(".") {
                        enumerator.skipDescendants()
                        continue
                    }
                    guard name.hasSuffix(".yaml") || name.hasSuffix(".yml"), !name.hasPrefix("_") else { continue }
                    below.append(relative)
                }
            }
            let prefix = path == "." ? "" : (path.hasSuffix("/") ? path : path + "/")
            found += below.sorted().map { prefix + $0 }
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0).inserted }
    }
}
