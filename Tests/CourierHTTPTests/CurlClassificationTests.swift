import CCurl
@testable import CourierHTTP
import Foundation
import Testing

/// How a libcurl code and its text become a kind, an option and a hint (HTTPError+Curl and
/// the CurlClassification families), from libcurl's data alone.
@Suite struct CurlClassificationTests {
    /// Settings named as the engine names them, to see that hints name them at all.
    static func names(_ setting: HTTPSetting) -> String? { "'\(setting)'" }

    static func error(_ code: CURLcode, _ detail: String = "", url: String = "https://127.0.0.1:8443/x",
                      options: HTTPRequestOptions = HTTPRequestOptions(), context: CurlFailureContext = CurlFailureContext()) -> HTTPError {
        HTTPError(curlCode: code, detail: detail, url: url, options: options, context: context)
    }

    @Test(arguments: CurlErrorPhrase.allCases)
    func everyPhraseIsFoundInItsOwnFragmentsAndNotInAnUnrelatedText(phrase: CurlErrorPhrase) {
        #expect(!phrase.fragments.isEmpty)
        for fragment in phrase.fragments { #expect(phrase.isSaid(in: "libcurl: \(fragment) (and more)")) }
        #expect(!phrase.isSaid(in: "Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server"))
    }

    /// Real texts of libcurl 7.88 with OpenSSL 3.0, each said by exactly the phrases listed.
    @Test(arguments: [
        ("Too large response headers: 307232 > 307200", [CurlErrorPhrase.headersTooLarge]),
        ("Malformed encoding found in chunked-encoding", [.brokenChunk]),
        ("SSL: no alternative certificate subject name matches target host name 'localhost'", [.hostNameMismatch]),
        ("OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0", [.certificateRequired, .tlsAlert]),
        ("OpenSSL SSL_read: error:0A000412:SSL routines::sslv3 alert bad certificate, errno 0", [.tlsAlert, .clientCertificateRejected]),
        ("could not load PKCS12 client certificate, OpenSSL error error:0308010C:digital envelope routines::unsupported", [.legacyPKCS12Algorithm]),
        ("could not parse PKCS12 file, check password, OpenSSL error error:11800071:PKCS12 routines::mac verify failure", [.pkcs12Password]),
        ("unable to set private key file: 'client.key' type PEM", [.privateKey]),
        ("could not load PEM client certificate from client.pem, OpenSSL error error:1E08010C:DECODER routines::unsupported", []),
        ("unable to use client certificate file", [.certificateFile]),
    ] as [(String, [CurlErrorPhrase])])
    func libcurlsTextsSayTheirPhrases(text: String, phrases: [CurlErrorPhrase]) {
        #expect(CurlErrorPhrase.allCases.filter { $0.isSaid(in: text) } == phrases)
    }

    @Test func aConnectFailureNamingTheProxyIsAProxyError() {
        var options = HTTPRequestOptions()
        options.proxy = "http://user:pw@proxy.test:3128"
        let proxy = Self.error(CURLE_COULDNT_CONNECT, "Failed to connect to proxy.test port 3128 after 1 ms: Couldn't connect to server",
                               url: "http://api.test/x", options: options)
        #expect(proxy.kind == .proxy)
        #expect(proxy.curlOption == "CURLOPT_PROXY")
        #expect(proxy.hint == "cannot connect to the proxy http://user:***@proxy.test:3128")
        #expect(proxy.text(naming: Self.names).hint == "cannot connect to the proxy http://user:***@proxy.test:3128; check 'proxy'")
        let server = Self.error(CURLE_COULDNT_CONNECT, "Failed to connect to api.test port 80 after 1 ms: Couldn't connect to server",
                                url: "http://api.test/x", options: options)
        #expect(server.kind == .connectionRefused)
        #expect(server.hint == "is a server listening on api.test?")
    }

    @Test func aTimeoutNamesTheLimitThatRanOut() {
        var options = HTTPRequestOptions()
        options.connectTimeoutMilliseconds = 500
        options.timeoutMilliseconds = 2000
        let connect = Self.error(CURLE_OPERATION_TIMEDOUT, options: options)
        #expect(connect.curlOption == "CURLOPT_CONNECTTIMEOUT_MS")
        #expect(connect.text(naming: Self.names).hint == "no connection to 127.0.0.1:8443 within 500 ms ('connectTimeout'); is the host reachable?")
        let response = Self.error(CURLE_OPERATION_TIMEDOUT, options: options, context: CurlFailureContext(connected: true))
        #expect(response.curlOption == "CURLOPT_TIMEOUT_MS")
        #expect(response.hint == "no response within 2000 ms; raise it if the server is just slow")
        let body = Self.error(CURLE_OPERATION_TIMEDOUT, options: options, context: CurlFailureContext(connected: true, receivedResponse: true))
        #expect(body.hint == "the response did not finish within 2000 ms; the server stalled or is slow")
    }

    @Test func unsupportedProtocolIsARedirectAReplyOrTheURL() {
        let redirect = Self.error(CURLE_UNSUPPORTED_PROTOCOL, context: CurlFailureContext(connected: true, receivedResponse: true,
                                                                                          redirectLocation: "file:///etc/passwd"))
        #expect(redirect.kind == .badRedirect)
        #expect(redirect.hint == "the server redirected to 'file:///etc/passwd'; only http and https redirects are followed")
        #expect(Self.error(CURLE_UNSUPPORTED_PROTOCOL, context: CurlFailureContext(connected: true)).kind == .badResponse)
        #expect(Self.error(CURLE_WEIRD_SERVER_REPLY).kind == .badResponse)
        let url = Self.error(CURLE_UNSUPPORTED_PROTOCOL, "Protocol \"ftp\" not supported", url: "ftp://h/")
        #expect(url.kind == .invalidURL)
        #expect(url.curlOption == "CURLOPT_URL")
        #expect(url.message == "Protocol \"ftp\" not supported")
    }

    /// 56 is three different things, told apart by its text; the response family goes first.
    @Test func receiveErrorsByTheirText() {
        let headers = Self.error(CURLE_RECV_ERROR, "Too large response headers: 307232 > 307200", context: CurlFailureContext(connected: true))
        #expect(headers.kind == .headerTooLarge)
        #expect(headers.message == "the response's headers are over 300 KB in all, more than libcurl accepts")
        let chunk = Self.error(CURLE_RECV_ERROR, "Malformed encoding found in chunked-encoding", context: CurlFailureContext(connected: true))
        #expect(chunk.kind == .badResponse)
        #expect(chunk.hint?.hasPrefix("the server's chunked transfer-encoding is broken") == true)
        let required = Self.error(CURLE_RECV_ERROR, "OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0",
                                  context: CurlFailureContext(connected: true))
        #expect(required.kind == .clientCertificateRequired)
        #expect(required.text(naming: Self.names).hint == "does the server require a client certificate? set 'clientCertificate' and 'clientKey'")
        let broken = Self.error(CURLE_RECV_ERROR, "Recv failure: Connection reset by peer", url: "http://127.0.0.1:8080/",
                                context: CurlFailureContext(connected: true, receivedResponse: true))
        #expect(broken.kind == .connectionClosed)
        #expect(broken.hint == "the connection to 127.0.0.1:8080 broke while the request was in flight")
    }

    @Test func aRejectedClientCertificateNamesIt() {
        var options = HTTPRequestOptions()
        options.tls.certificatePath = "/certs/client.pem"
        let rejected = Self.error(CURLE_RECV_ERROR, "OpenSSL SSL_read: error:0A000418:SSL routines::tlsv1 alert unknown ca, errno 0",
                                  options: options, context: CurlFailureContext(connected: true))
        #expect(rejected.kind == .tls)
        #expect(rejected.path == "/certs/client.pem")
        #expect(rejected.hint == "the server rejected the client certificate '/certs/client.pem': is it issued by a CA the server trusts?")
        let handshake = Self.error(CURLE_SSL_CONNECT_ERROR, "OpenSSL SSL_connect: SSL_ERROR_SYSCALL", options: options)
        #expect(handshake.hint == "the TLS handshake with 127.0.0.1:8443 failed; is it an HTTPS server?")
    }

    @Test func outOfMemoryOnceConnectedIsAHeaderLineTooLarge() {
        let error = Self.error(CURLE_OUT_OF_MEMORY, "Avoided giant realloc for header (max is 102400)!", context: CurlFailureContext(connected: true))
        #expect(error.kind == .headerTooLarge)
        #expect(error.message == "the response has a header line over 100 KB, more than libcurl accepts")
        #expect(Self.error(CURLE_OUT_OF_MEMORY).kind == .transport)
    }

    @Test func anEmptyErrorBufferGivesLibcurlsNameOfTheCode() throws {
        // libcurl is loaded on first use; its words for the code need it.
        try #require(HTTPClient.libcurlVersion != nil)
        let error = Self.error(CURLE_GOT_NOTHING)
        #expect(error.message == "server returned nothing (no headers, no data)")
        #expect(error.kind == .connectionClosed)
        #expect(error.curlCode == Int(CURLE_GOT_NOTHING.rawValue))
    }

    /// Error 58's hint depends on what the files hold: classifying reads none of them (it runs
    /// on the driver thread); `explainingFiles()` reads them, once.
    @Test func aCertificateProblemReadsTheFilesOnlyWhenExplained() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let p12 = directory.appendingPathComponent("client.p12").path
        var options = HTTPRequestOptions()
        options.tls.certificatePath = p12
        options.tls.password = "secret"
        // The file does not exist yet when the error is classified.
        let error = Self.error(CURLE_SSL_CERTPROBLEM, "could not load PKCS12 client certificate, OpenSSL error error:0A080002:SSL routines::unknown",
                               options: options)
        #expect(error.unreadFiles != nil)
        #expect(error.kind == .tls)
        #expect(error.curlOption == "CURLOPT_SSLCERT")
        #expect(error.path == p12)
        // Now it holds the OID of pbeWithSHAAnd40BitRC2-CBC (1.2.840.113549.1.12.1.6).
        let legacy: [UInt8] = [0x30, 0x82, 0x06, 0x0A, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01, 0x06, 0x30]
        try Data(legacy).write(to: URL(fileURLWithPath: p12))
        let explained = error.explainingFiles()
        #expect(explained.unreadFiles == nil)
        #expect(explained.hint?.hasPrefix("'\(p12)' uses legacy PKCS#12 algorithms (RC2/RC4)") == true, "\(explained.hint ?? "")")
        #expect(explained.hint?.hasSuffix("; if the provider is enabled already, check the password") == true)
        // Explained, the wording no longer looks at the file.
        try Data([0x30, 0x00]).write(to: URL(fileURLWithPath: p12))
        #expect(explained.hint?.contains("legacy PKCS#12") == true)
        #expect(error.explainingFiles().hint == "check that '\(p12)' is a PKCS#12 file and that the password is right")
        #expect(explained.message == error.message)
        #expect(Self.error(CURLE_COULDNT_CONNECT).unreadFiles == nil)
    }

    @Test func anEncryptedKeyIsToldFromItsFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("client.key").path
        try "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIF\n-----END ENCRYPTED PRIVATE KEY-----\n".write(toFile: key, atomically: true, encoding: .utf8)
        var options = HTTPRequestOptions()
        options.tls.certificatePath = directory.appendingPathComponent("client.pem").path
        options.tls.keyPath = key
        let error = Self.error(CURLE_SSL_CERTPROBLEM, "unable to set private key file: '\(key)' type PEM", options: options).explainingFiles()
        #expect(error.text(naming: Self.names).hint == "the key '\(key)' is encrypted: set 'password'")
    }
}
