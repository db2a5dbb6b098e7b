/// The built-in transport settings (docs/workflow-format.md §6): one place for the runner's
/// bottom option layer, ``HTTPRequestOptions``' defaults and the `Courier` library's
/// configuration.
public enum HTTPDefaults {
    /// The whole request: 30 s.
    public static let timeoutMilliseconds = 30_000
    /// Connecting: 10 s.
    public static let connectTimeoutMilliseconds = 10_000
    public static let followRedirects = true
    public static let maxRedirects = 10
    /// Ask for and decode gzip, deflate and br.
    public static let compressed = true
    /// A body above this fails the request instead of exhausting memory: 256 MiB.
    public static let maxResponseBytes = 256 * 1024 * 1024
}
