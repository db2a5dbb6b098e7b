import CourierHTTP
import Foundation

extension APIClient {
    /// How an ``APIClient`` sends requests and reads responses. Every property has a
    /// default; set what you need before creating the client (it copies the value).
    ///
    /// ```swift
    /// var config = APIClient.Configuration()
    /// config.timeout = .seconds(10)
    /// config.retry = RetryPolicy(attempts: 3, delay: .milliseconds(200))
    /// config.keyDecodingStrategy = .convertFromSnakeCase
    /// config.tls.caCertificate = "/etc/ssl/private-ca.pem"
    /// config.authenticator = TokenAuthenticator { try await fetchToken() }
    /// ```
    public struct Configuration: Sendable {
        /// The longest a whole request may take, connecting and reading the body
        /// included; default 30 seconds. Applies to each attempt.
        public var timeout: Duration = .milliseconds(HTTPDefaults.timeoutMilliseconds)
        /// The longest connecting (and the TLS handshake) may take; default 10 seconds.
        public var connectTimeout: Duration = .milliseconds(HTTPDefaults.connectTimeoutMilliseconds)
        /// When to send a request again; the same type as the `courier` runner's.
        ///
        /// Default: one attempt (no retries). With more attempts, responses and timeouts
        /// matching `retry.conditions` (by default network failures, timeouts, 429, 502,
        /// 503, 504) are retried for idempotent methods only (GET, HEAD, PUT, DELETE,
        /// OPTIONS, TRACE); a POST or PATCH is retried only when it never reached the
        /// server (connection refused, unknown host). `Retry-After` on 429 and 503 is
        /// honoured up to `retry.maxDelay`; waits are cancelled with the task.
        public var retry: RetryPolicy = RetryPolicy(attempts: 1)
        /// Server verification and client certificates; default: the system's CAs, no client certificate.
        public var tls: TLS = TLS()
        /// How JSON bodies' keys are written; default `.useDefaultKeys`.
        public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
        /// How JSON responses' keys are read; default `.useDefaultKeys`
        /// (`.convertFromSnakeCase` maps `full_name` to `fullName`).
        public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
        /// How `Date`s are written in JSON bodies; default ISO 8601.
        public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .iso8601
        /// How `Date`s are read from JSON responses; default ISO 8601.
        public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .iso8601
        /// Adds credentials to every request and refreshes them after a 401; default none.
        public var authenticator: (any Authenticator)?
        /// Header fields sent with every request, before the endpoint's own (which replace
        /// fields of the same name); default none.
        public var defaultHeaders: HTTPHeaders = [:]
        /// Whether redirects are followed (up to 10); default true.
        public var followRedirects: Bool = true
        /// Response bodies larger than this fail with ``APIError/Kind/transport`` instead of
        /// filling memory; default 256 MiB. Downloads to a file have no limit.
        public var maxResponseBytes: Int = HTTPDefaults.maxResponseBytes

        /// The defaults described on each property.
        public init() {}
    }

    /// TLS settings; file paths are absolute or relative to the working directory.
    public struct TLS: Sendable {
        /// A PEM file of CA certificates trusted instead of the system's (a private CA); default nil.
        public var caCertificate: String?
        /// The certificate presented when the server asks for one (mutual TLS); default nil.
        public var clientCertificate: ClientCertificate?
        /// A `sha256//BASE64` pin of the server's public key; the handshake fails when
        /// the key differs. Default nil.
        public var pinnedPublicKey: String?
        /// Skips verification of the server's certificate and name. For local
        /// development only; default false.
        public var insecure: Bool = false

        /// Verification on with the system's CAs, no client certificate.
        public init() {}
    }

    /// A client certificate and its private key.
    public enum ClientCertificate: Sendable {
        /// A PEM certificate and a PEM key (nil when the key is in the certificate's
        /// file); `password` decrypts an encrypted key.
        case pem(certificate: String, key: String?, password: String? = nil)
        /// A PKCS#12 bundle (certificate and key in one file), whose name must end in
        /// `.p12` or `.pfx`; `password` opens it.
        case pkcs12(path: String, password: String?)
    }
}
