/// Credentials libcurl answers a server's challenge with (`CURLOPT_HTTPAUTH`), where no header
/// Courier builds could: Digest's `response=` is computed from the server's nonce.
public enum HTTPAuthentication: Sendable {
    /// HTTP Digest (RFC 7616; MD5 and SHA-256, `qop=auth`), as `curl --digest -u user:password`:
    /// the request goes without credentials, and libcurl answers the `401` and its
    /// `WWW-Authenticate: Digest …` with `Authorization: Digest …` on the same transfer.
    case digest(username: String, password: String)

    /// The password, which every output masks.
    public var password: String {
        switch self {
        case .digest(_, let password): password
        }
    }
}
