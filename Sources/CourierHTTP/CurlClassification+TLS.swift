import CCurl

extension CurlClassification {
    /// TLS: the server's certificate, the CA and client files, the pin, the handshake; and a
    /// connection that broke mid-request (55/56 are also how TLS 1.3 reports a handshake refusal).
    ///
    /// The codes and messages are what libcurl 7.88 with OpenSSL 3.0 returns against
    /// `Tests/Servers/testserver.py` (see `Tests/IntegrationTests/Transport/TLSTests.swift`).
    static func tls(_ failure: CurlFailure) -> CurlClassification? {
        let tls = failure.options.tls
        switch failure.code {
        case CURLE_PEER_FAILED_VERIFICATION:
            if failure.says(.hostNameMismatch) {
                return CurlClassification(.tls, hint: "the server's certificate is not valid for '\(failure.hostName)': use a host name it was issued for")
            }
            return CurlClassification(.tls, option: "CURLOPT_CAINFO") { n in
                "the server's certificate is not trusted: pass its CA" + (n(.caFile).map { " with \($0)" } ?? "")
                    + ", or " + (n(.insecure).map { "set \($0) to skip verification" } ?? "skip verification")
            }
        case CURLE_SSL_CACERT_BADFILE:
            let ca = tls.caPath ?? ""
            return CurlClassification(.tls, option: "CURLOPT_CAINFO", path: tls.caPath) { n in
                "the CA file '\(ca)'\(HTTPError.parenthesized(n(.caFile))) cannot be read or holds no PEM certificate"
            }
        case CURLE_SSL_CERTPROBLEM:
            // The hint depends on what the files hold: read later, off the driver thread.
            var found = CurlClassification(.tls, option: "CURLOPT_SSLCERT", path: tls.certificatePath)
            found.certificateProblem = CertificateProblem(message: failure.message, tls: tls)
            return found
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return CurlClassification(.pinMismatch, option: "CURLOPT_PINNEDPUBLICKEY") { n in
                "the server's public key does not match \(n(.pinnedKey) ?? "the pinned key"); if the server's key changed on purpose, update the pin"
            }
        case CURLE_SSL_CONNECT_ERROR, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return handshakeOrBrokenConnection(failure)
        default:
            return nil
        }
    }

    /// A server that requires a client certificate and gets none fails the TLS 1.2 handshake
    /// (35); under TLS 1.3 the handshake completes and the server's alert (or its reset)
    /// surfaces on the first read or write (56 or 55, it varies).
    private static func handshakeOrBrokenConnection(_ failure: CurlFailure) -> CurlClassification {
        let tls = failure.options.tls
        let isHandshake = failure.code == CURLE_SSL_CONNECT_ERROR
        let alert = failure.says(.tlsAlert)
        let refusedEarly = isHandshake ? alert : !failure.context.receivedResponse
        if failure.isHTTPS && tls.certificatePath == nil && (failure.says(.certificateRequired) || refusedEarly) {
            return CurlClassification(.clientCertificateRequired, option: "CURLOPT_SSLCERT") { n in
                let what = n(.clientCertificate).map { cert in "\(cert) and \(n(.clientKey) ?? "a key")" } ?? "a client certificate and its key"
                return "does the server require a client certificate? set \(what)"
            }
        }
        if failure.isHTTPS, let cert = tls.certificatePath, refusedEarly {
            // Under TLS 1.3 a rejected client certificate shows up like a missing one:
            // an alert, or a reset, on the first read or write.
            let hint = if failure.says(.clientCertificateRejected) {
                "the server rejected the client certificate '\(cert)': is it issued by a CA the server trusts?"
            } else if alert {
                "the server ended the TLS handshake; check the client certificate '\(cert)' and the TLS versions the server accepts"
            } else {
                "the server closed the connection right after the TLS handshake: did it reject the client certificate '\(cert)'? (is it issued by a CA the server trusts?)"
            }
            return CurlClassification(.tls, option: "CURLOPT_SSLCERT", path: cert, hint: hint)
        }
        if isHandshake {
            return CurlClassification(.tls, hint: "the TLS handshake with \(failure.host) failed; is it an HTTPS server?")
        }
        return CurlClassification(.connectionClosed, hint: "the connection to \(failure.host) broke while the request was in flight")
    }
}
