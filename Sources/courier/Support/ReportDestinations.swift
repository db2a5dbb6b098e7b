import CourierReports
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the reports asked for would go, checked before anything is sent: a report
/// must not replace a workflow being run (`--html a.yaml`), and two reports must not
/// share a file (`--json r.out --junit r.out` kept only the last). Usage errors, exit 2.
///
/// Only destinations a report replaces are compared (files, paths not there yet):
/// `-`, FIFOs and devices (`/dev/null`) take every report sent to them.
enum ReportDestinations {
    static func check(_ requests: [ReportRequest], workflowFiles: [String]) throws(UsageError) {
        let workflows = workflowFiles.compactMap { file in identity(of: file).map { (file, $0) } }
        var claimed: [(option: String, identity: Identity)] = []
        for request in requests where ReportWriter.replacesWhole(request.path) {
            guard let target = identity(of: request.path) else { continue }
            if let (file, _) = workflows.first(where: { $0.1 == target }) {
                throw UsageError("\(request.format.option) '\(request.path)' is the workflow '\(file)': the report would overwrite it")
            }
            if let earlier = claimed.first(where: { $0.identity == target }) {
                throw UsageError("\(earlier.option) and \(request.format.option) both write '\(request.path)': give each report a file of its own")
            }
            claimed.append((request.format.option, target))
        }
    }

    /// A file that exists is its device and inode (a link, another spelling of the path,
    /// a hard link: all the same file); a path not there yet is its directory's real path
    /// and its name.
    enum Identity: Equatable {
        case file(dev: UInt64, inode: UInt64)
        case new(String)
    }

    static func identity(of path: String) -> Identity? {
        var info = stat()
        if stat(path, &info) == 0 { return .file(dev: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let directory = (absolute as NSString).deletingLastPathComponent
        let name = (absolute as NSString).lastPathComponent
        guard let real = realpath(directory, nil) else { return .new((absolute as NSString).standardizingPath) }
        defer { free(real) }
        return .new(String(cString: real) + "/" + name)
    }
}
