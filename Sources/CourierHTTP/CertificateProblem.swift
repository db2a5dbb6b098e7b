import Foundation

/// Error 58 (`CURLE_SSL_CERTPROBLEM`): a client certificate, key or PKCS#12 file that OpenSSL
/// would not load, as libcurl reported it. What the hint says also depends on what the files
/// hold (``CertificateFileContents``), read off the driver thread.
struct CertificateProblem: Sendable {
    var message: String
    var certificate: String
    var key: String?
    var hasPassword: Bool
    var isPKCS12: Bool

    init(message: String, tls: TLSOptions) {
        self.message = message
        certificate = tls.certificatePath ?? ""
        key = tls.keyPath
        hasPassword = tls.password != nil
        isPKCS12 = tls.certificateIsPKCS12
    }

    /// What a user can do about it, settings named by `n`.
    func hint(_ files: CertificateFileContents, _ n: (HTTPSetting) -> String?) -> String {
        let cert = certificate
        let password = n(.password) ?? "the password"
        if isPKCS12 {
            // OpenSSL's error queue is per thread and libcurl reports its oldest entry, which
            // may be left over from an earlier failure: look at the file, not just the message.
            if CurlErrorPhrase.legacyPKCS12Algorithm.isSaid(in: message) || files.legacyPKCS12 {
                return "'\(cert)' uses legacy PKCS#12 algorithms (RC2/RC4) that OpenSSL 3 loads only with its legacy provider: "
                    + "enable it through OPENSSL_CONF, or re-export the file: openssl pkcs12 -legacy -in old.p12 -nodes | openssl pkcs12 -export -out new.p12"
                    + (!hasPassword ? "; it may also need \(password)" : "; if the provider is enabled already, check \(password)")
            }
            if CurlErrorPhrase.pkcs12Password.isSaid(in: message) {
                return !hasPassword ? "'\(cert)' is protected by a password: set \(password)" : "wrong \(password) for '\(cert)'"
            }
            return "check that '\(cert)' is a PKCS#12 file and that \(password) is right"
        }
        if CurlErrorPhrase.privateKey.isSaid(in: message) {
            let key = self.key ?? cert
            if files.encryptedKey {
                return !hasPassword ? "the key '\(key)' is encrypted: set \(password)" : "wrong \(password) for the encrypted key '\(key)'"
            }
            return "the key '\(key)'\(HTTPError.parenthesized(n(.clientKey))) does not belong to the certificate '\(cert)', or is not a PEM private key"
        }
        if key == nil && !CurlErrorPhrase.certificateFile.isSaid(in: message) {
            return "'\(cert)' holds no private key: set \(n(.clientKey) ?? "its key")"
        }
        return "'\(cert)'\(HTTPError.parenthesized(n(.clientCertificate))) must be a PEM certificate, or PKCS#12 named .p12/.pfx"
    }
}

/// What error 58's hint needs to know of the certificate and key files: file I/O, so never
/// on the driver thread (see ``HTTPError/explainingFiles()``).
struct CertificateFileContents: Sendable {
    /// The PKCS#12 file uses RC2 or RC4, which OpenSSL 3 has only in its legacy provider.
    var legacyPKCS12: Bool
    /// The PEM key (the key file, else the certificate file) is encrypted.
    var encryptedKey: Bool

    init(legacyPKCS12: Bool, encryptedKey: Bool) {
        self.legacyPKCS12 = legacyPKCS12
        self.encryptedKey = encryptedKey
    }

    init(reading problem: CertificateProblem) {
        legacyPKCS12 = problem.isPKCS12 && Self.usesLegacyPKCS12Ciphers(at: problem.certificate)
        encryptedKey = Self.isEncryptedPEMKey(at: problem.key ?? problem.certificate)
    }

    /// Whether a PKCS#12 file names an RC2 or RC4 PBE algorithm (OIDs 1.2.840.113549.1.12.1.1,
    /// .2, .5, .6) in its first 256 KiB.
    static func usesLegacyPKCS12Ciphers(at path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 256 * 1024)
        bytes.removeSubrange(fread(&bytes, 1, bytes.count, file)...)
        let prefix: [UInt8] = [0x06, 0x0A, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01]
        guard bytes.count > prefix.count else { return false }
        for start in 0..<(bytes.count - prefix.count) where bytes[start] == 0x06 {
            if bytes[start..<start + prefix.count].elementsEqual(prefix), [1, 2, 5, 6].contains(bytes[start + prefix.count]) {
                return true
            }
        }
        return false
    }

    /// Whether the first 4 KiB of a PEM file say `ENCRYPTED` (`-----BEGIN ENCRYPTED PRIVATE KEY-----`).
    static func isEncryptedPEMKey(at path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = fread(&buffer, 1, buffer.count, file)
        let head = String(decoding: buffer.prefix(count), as: UTF8.self)
        return head.contains("ENCRYPTED")
    }
}
