/// The one include-cycle check: at load time for literal `include:` paths
/// (``WorkflowDecoder``'s loading context) and at run time for templated ones
/// (``loadIncludedFile(path:sources:chain:)``, called by the engine).
package enum IncludeCycle {
    /// `include cycle: a.yaml → b.yaml → a.yaml` when including `path` from the files in
    /// `chain` (the workflow, then each include that led here) would include a file that is
    /// already being included; nil otherwise. Paths compare as ``FilePaths/resolve(_:against:standardInput:)``
    /// names them, so `./b.yaml` and `b.yaml` are one file.
    ///
    /// ```swift
    /// IncludeCycle.message(including: "a.yaml", from: ["a.yaml", "b.yaml"])  // "include cycle: a.yaml → b.yaml → a.yaml"
    /// ```
    package static func message(including path: String, from chain: [String]) -> String? {
        guard let start = chain.firstIndex(of: path) else { return nil }
        return "include cycle: " + (chain[start...] + [path]).joined(separator: " → ")
    }
}
