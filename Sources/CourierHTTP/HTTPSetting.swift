/// A request setting that an error's wording can point to.
///
/// ``HTTPError`` words its message and hint neutrally ("the connect timeout",
/// "the CA file"); a layer that knows what its users call these settings (a
/// workflow key, a command-line flag) passes names to ``HTTPError/text(naming:)``.
public enum HTTPSetting: Sendable, Hashable, CaseIterable {
    /// ``TLSOptions/caPath``.
    case caFile
    /// ``TLSOptions/certificatePath``.
    case clientCertificate
    /// ``TLSOptions/keyPath``.
    case clientKey
    /// ``TLSOptions/password``.
    case password
    /// ``TLSOptions/pinnedPublicKey``.
    case pinnedKey
    /// ``TLSOptions/insecure`` set to true.
    case insecure
    /// ``HTTPRequestOptions/connectTimeoutMilliseconds``.
    case connectTimeout
    /// ``HTTPRequestOptions/timeoutMilliseconds``.
    case timeout
    /// ``HTTPRequestOptions/proxy``.
    case proxy
    /// ``HTTPRequestOptions/maxRedirects``.
    case maxRedirects
    /// ``HTTPRequestOptions/followRedirects`` set to false.
    case noFollowRedirects
    /// ``HTTPRequestOptions/maxResponseBytes``.
    case maxResponseBytes
    /// ``HTTPRequestOptions/compressed`` set to false.
    case notCompressed
    /// ``HTTPRequestOptions/httpVersion`` set to HTTP/1.1.
    case http1_1
    /// A ``HTTPRequestBody/file(path:)`` body.
    case bodyFile
    /// A file part of a ``HTTPRequestBody/multipart(_:)`` body.
    case multipartFile
}
