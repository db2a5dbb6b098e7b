/// The phrases of libcurl's and OpenSSL's error texts that tell causes apart, in one table.
///
/// One code covers several causes (56 is a broken chunk, headers over 300 KB or a refused
/// client certificate), and only the text says which. The fragments are those of libcurl 7.88
/// with OpenSSL 3.0 (`Tests/IntegrationTests/Transport/TLSTests.swift` produces each one);
/// a libcurl that words them differently gets the family's general hint, never a wrong one.
enum CurlErrorPhrase: CaseIterable, Sendable {
    /// 56: libcurl caps the whole header block ("Too large response headers: 307200 > 307200").
    case headersTooLarge
    /// 56: a chunk size that is not hexadecimal ("Malformed encoding found in chunked-encoding").
    case brokenChunk
    /// 60: the certificate is for another name ("SSL: no alternative certificate subject name matches target host name").
    case hostNameMismatch
    /// 35/56: the server asked for a client certificate ("tlsv13 alert certificate required").
    case certificateRequired
    /// 35: the server ended the handshake with an alert.
    case tlsAlert
    /// 56: the server did not accept the client certificate given ("sslv3 alert bad certificate").
    case clientCertificateRejected
    /// 58: OpenSSL 3 without its legacy provider ("error:0308010C:digital envelope routines::unsupported").
    case legacyPKCS12Algorithm
    /// 58: a PKCS#12 file's password is missing or wrong ("mac verify failure").
    case pkcs12Password
    /// 58: the key cannot be loaded or does not match ("unable to set private key file").
    case privateKey
    /// 58: the certificate file itself cannot be loaded ("could not load PEM client certificate").
    case certificateFile

    /// Any of these in a message means the phrase was said (case-sensitive, as libcurl writes them).
    var fragments: [String] {
        switch self {
        case .headersTooLarge: ["Too large response headers"]
        case .brokenChunk: ["chunk"]
        case .hostNameMismatch: ["subject name", "host name", "does not match"]
        case .certificateRequired: ["certificate required"]
        case .tlsAlert: ["alert"]
        case .clientCertificateRejected: ["unknown ca", "bad certificate", "unsupported certificate"]
        case .legacyPKCS12Algorithm: ["0308010C"]
        case .pkcs12Password: ["mac verify", "password"]
        case .privateKey: ["private key", "key file"]
        case .certificateFile: ["certificate file"]
        }
    }

    func isSaid(in message: String) -> Bool {
        fragments.contains { message.contains($0) }
    }

    /// Whether a connect failure's text names `host` and `port` ("Failed to connect to
    /// proxy.example port 3128 after 2 ms"): the one phrase built from the request.
    static func namesEndpoint(_ message: String, host: String, port: String) -> Bool {
        message.contains(host) && message.contains("port \(port)")
    }
}
