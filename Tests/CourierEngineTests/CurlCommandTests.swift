import Foundation
import CourierHTTP
import CourierSecrets
import Testing
@testable import CourierEngine

/// `--curl` command text (the integration suite runs such commands with the real curl).
struct CurlCommandTextTests {
    let none = MaskingPolicy.empty

    /// The last line (the command), the `# …` lines before it dropped.
    func command(_ request: HTTPRequest, policy: MaskingPolicy = .empty) -> String {
        String(CurlCommand(policy: policy).render(request).split(separator: "\n").last ?? "")
    }

    var plainOptions: HTTPRequestOptions {
        var options = HTTPRequestOptions()
        options.followRedirects = false
        options.compressed = false
        options.timeoutMilliseconds = 1500
        options.connectTimeoutMilliseconds = 250
        return options
    }

    @Test("a GET names no method; text is single-quoted with '\\'' for a quote; an empty header is 'Name;'")
    func quoting() {
        let request = HTTPRequest(url: "http://127.0.0.1:1/a?x=1&y=2", headers: ["X-Note": "it's $HOME!", "X-Empty": ""],
                                  options: plainOptions)
        #expect(command(request) == #"curl -H 'X-Note: it'\''s $HOME!' -H 'X-Empty;' --max-time 1.5 --connect-timeout 0.25 --globoff 'http://127.0.0.1:1/a?x=1&y=2'"#)
    }

    @Test("HEAD is --head; PUT with a body is -X PUT with --data-raw; a body with no type empties curl's Content-Type")
    func methods() {
        #expect(command(HTTPRequest(method: "HEAD", url: "http://h/", options: plainOptions)).hasPrefix("curl --head "))
        let put = command(HTTPRequest(method: "PUT", url: "http://h/", body: .bytes(Array("a b".utf8)), options: plainOptions))
        #expect(put == "curl -X PUT -H Content-Type: -H Expect: --data-raw 'a b' --max-time 1.5 --connect-timeout 0.25 --globoff http://h/")
    }

    @Test("body_file is @PATH, multipart values are --form-string and files -F name=@PATH;type=…")
    func filesAndForms() {
        let file = command(HTTPRequest(method: "POST", url: "http://h/", headers: ["Content-Type": "text/csv"],
                                       body: .file(path: "/tmp/my data.csv"), options: plainOptions))
        #expect(file.contains("--data-binary '@/tmp/my data.csv'"))
        #expect(!file.contains("Content-Type:'") && !file.contains("-H Content-Type: "))
        let form = command(HTTPRequest(method: "POST", url: "http://h/", body: .multipart([
            MultipartPart(name: "note", content: .value("@not a file")),
            MultipartPart(name: "doc", content: .file(path: "/tmp/a.pdf"), contentType: "application/pdf"),
        ]), options: plainOptions))
        #expect(form.contains("--form-string 'note=@not a file' -F '/tmp/a.pdf'") == false)
        #expect(form.contains("--form-string 'note=@not a file'"))
        #expect(form.contains(#"-F 'doc=@"/tmp/a.pdf";type=application/pdf'"#))
    }

    @Test("redirects, HTTP version, compression, proxy and TLS options")
    func options() {
        var options = HTTPRequestOptions()
        options.maxRedirects = 3
        options.httpVersion = .http1_1
        options.proxy = "http://127.0.0.1:3128"
        options.tls.insecure = true
        options.tls.caPath = "/ca.pem"
        options.tls.certificatePath = "/c.p12"
        let text = command(HTTPRequest(url: "https://h/", options: options))
        #expect(text == "curl -L --max-redirs 3 --max-time 30 --connect-timeout 10 --http1.1 --compressed --proxy http://127.0.0.1:3128 -k --cacert /ca.pem --cert /c.p12 --cert-type P12 --globoff https://h/")
    }

    @Test("each secret is its named variable, exported on a comment line; a percent-encoded one is its _PCT variable in place; other forms are ***")
    func secrets() throws {
        let policy = MaskingPolicy(secrets: [("s3cr\"et'x-long-enough-42", "api_key"), ("Bearer tok-123456", nil), ("tok-123456", "token")])
        let request = HTTPRequest(method: "POST", url: "http://h/p?a=1&k=s3cr%22et%27x-long-enough-42&z=1", headers: ["Authorization": "Bearer tok-123456"],
                                  body: .bytes(Array(#"{"k":"s3cr\"et'x-long-enough-42","t":"tok-123456"}"#.utf8)), options: plainOptions)
        let lines = CurlCommand(policy: policy).render(request).split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(lines)")
        #expect(lines[0] == "# export COURIER_SECRET_TOKEN=…")
        #expect(lines[1].hasPrefix("# export COURIER_SECRET_API_KEY_PCT=…  (COURIER_SECRET_API_KEY percent-encoded as sent"))
        #expect(lines[2].hasPrefix("# *** stands for a secret"))
        #expect(lines[3].contains(#"-H "Authorization: Bearer $COURIER_SECRET_TOKEN""#))
        #expect(lines[3].contains(#"--data-raw '{"k":"***","t":"'"$COURIER_SECRET_TOKEN"'"}'"#))
        // In place, in the encoding it was sent in: the query keeps its order.
        #expect(lines[3].hasSuffix(#" --globoff "http://h/p?a=1&k=$COURIER_SECRET_API_KEY_PCT&z=1""#), "\(lines[3])")
        for line in lines { #expect(!line.contains("tok-123456") && !line.contains("s3cr")) }
    }

    @Test("a form field holding a secret is its _PCT variable in place, in one --data-raw: the body as sent")
    func formSecret() throws {
        let secret = "p&ss word+/x-42"
        let policy = MaskingPolicy(secrets: [(secret, "password")])
        let body = "user=bob&password=p%26ss%20word%2B%2Fx-42&z=1"
        let request = HTTPRequest(method: "POST", url: "http://h/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                  body: .bytes(Array(body.utf8)), options: plainOptions)
        let lines = CurlCommand(policy: policy).render(request).split(separator: "\n").map(String.init)
        #expect(lines == ["# export COURIER_SECRET_PASSWORD_PCT=…  (COURIER_SECRET_PASSWORD percent-encoded as sent:"
                            + " every byte but A-Z a-z 0-9 - . _ ~ as %XX, upper-case hex)",
                          "curl -H 'Content-Type: application/x-www-form-urlencoded' -H Expect:"
                            + #" --data-raw "user=bob&password=$COURIER_SECRET_PASSWORD_PCT&z=1""#
                            + " --max-time 1.5 --connect-timeout 0.25 --globoff http://h/login"])
    }

    @Test("Basic credentials holding a declared secret stay a header, their base64 built by the shell from the variable; others stay as they are")
    func basicSecret() {
        let policy = MaskingPolicy(secrets: [("pa:ss word-42", "password")])
        let header = "Basic " + Data("bob:pa:ss word-42".utf8).base64EncodedString()
        let request = HTTPRequest(url: "http://h/", headers: ["Authorization": header], options: plainOptions)
        #expect(command(request, policy: policy)
                == #"curl -H "Authorization: Basic $(printf '%s' "bob:$COURIER_SECRET_PASSWORD" | base64 | tr -d '\n')" --max-time 1.5 --connect-timeout 0.25 --globoff http://h/"#)
        let unnamed = MaskingPolicy(secrets: [(header, nil)])
        #expect(command(request, policy: unnamed).hasPrefix(#"curl -H "Authorization: $COURIER_SECRET_1""#))
    }

    @Test("a body starting with @ is --data-raw; a multipart value starting with @ or < is --form-string or a quoted -F word")
    func noLocalFiles() {
        let raw = command(HTTPRequest(method: "POST", url: "http://h/", body: .bytes(Array("@/etc/hostname".utf8)), options: plainOptions))
        #expect(raw.contains(" --data-raw @/etc/hostname ") && !raw.contains("--data-binary"), "\(raw)")
        let form = command(HTTPRequest(method: "POST", url: "http://h/", body: .multipart([
            MultipartPart(name: "a", content: .value("@/etc/hostname")),
            MultipartPart(name: "b", content: .value("</etc/hostname"), contentType: "text/plain; charset=utf-8"),
            MultipartPart(name: "c", content: .file(path: "/tmp/x;y,\"z\".txt"), filename: "n;a,m\"e\\.txt"),
        ]), options: plainOptions))
        #expect(form.contains("--form-string a=@/etc/hostname"), "\(form)")
        #expect(form.contains(#"-F 'b="</etc/hostname";type=text/plain; charset=utf-8'"#), "\(form)")
        #expect(form.contains(#"-F 'c=@"/tmp/x;y,\"z\".txt";filename="n;a,m\"e\\.txt"'"#), "\(form)")
    }

    @Test("a part named h=i or with no name carries its own Content-Disposition; parts curl cannot send give a reason, no command")
    func awkwardParts() {
        let named = command(HTTPRequest(method: "POST", url: "http://h/", body: .multipart([
            MultipartPart(name: "h=i", content: .value("v")),
        ]), options: plainOptions))
        #expect(named.contains(#"-F 'part="v";headers="Content-Disposition: form-data; name=\"h=i\""'"#), "\(named)")
        for part in [MultipartPart(name: "h=i", content: .file(path: "/tmp/a")),
                     MultipartPart(name: "x", content: .value("v"), contentType: "text/plain, x"),
                     MultipartPart(name: "x", content: .value("v\0w"))] {
            let text = CurlCommand(policy: none).render(HTTPRequest(method: "POST", url: "http://h/", body: .multipart([part]), options: plainOptions))
            #expect(text.hasPrefix("# no curl command: curl's -F cannot send multipart part 1") && !text.contains("\ncurl"), "\(text)")
        }
    }

    @Test("a header holding CR LF, or a request Courier refused, gives its reason and no command")
    func refused() {
        let request = HTTPRequest(url: "http://h/", headers: ["X-Evil": "a\r\nX-Injected: 1"], options: plainOptions)
        let text = CurlCommand(policy: none).render(request)
        #expect(text == "# no curl command: Courier does not send a header holding a line break or NUL (invalid_header)")
        let error = HTTPError(kind: .invalidHeader, message: "the value of the header 'X-Evil' holds a line break or NUL; nothing was sent")
        let failed = CurlCommand(policy: none).render(request, failedWith: error)
        #expect(failed.hasPrefix("# no curl command: Courier did not send this request (invalid_header): the value of the header 'X-Evil'"))
        #expect(!failed.contains("curl -") && !failed.contains("Injected"))
        let refusedURL = CurlCommand(policy: none).render(HTTPRequest(url: "http://h/", options: plainOptions),
                                                           failedWith: HTTPError(kind: .fileUnreadable, message: "cannot read"))
        #expect(refusedURL.hasPrefix("# no curl command:"))
        let timedOut = CurlCommand(policy: none).render(HTTPRequest(url: "http://h/", options: plainOptions),
                                                         failedWith: HTTPError(kind: .timeout, message: "timed out"))
        #expect(timedOut.hasPrefix("curl "), "a request that was sent and failed keeps its command")
    }

    @Test("the URL is always --globoff: [1-3] and {a,b} are sent as they are")
    func globoff() {
        #expect(command(HTTPRequest(url: "http://h/a[1-3]?b={x,y}", options: plainOptions)).hasSuffix(" --globoff 'http://h/a[1-3]?b={x,y}'"))
    }

    @Test("the Cookie libcurl added from its jar is -b, as a variable when it is a secret; the request's own Cookie is not repeated")
    func jarCookie() {
        let policy = MaskingPolicy(secrets: [("session=abc123xyz", nil), ("abc123xyz", nil)])
        let request = HTTPRequest(url: "http://h/me", headers: ["Cookie": "lang=en"], options: plainOptions)
        let sent = [HTTPSentRequest(requestLine: "GET /me HTTP/1.1",
                                    headers: HTTPHeaders([.init(name: "Host", value: "h"), .init(name: "Cookie", value: "lang=en"),
                                                          .init(name: "Cookie", value: "session=abc123xyz")]))]
        let text = CurlCommand(policy: policy).render(request, sent: sent)
        #expect(text.hasSuffix(#"curl -H 'Cookie: lang=en' -b "$COURIER_SECRET_1" --max-time 1.5 --connect-timeout 0.25 --globoff http://h/me"#), "\(text)")
        #expect(!text.contains("abc123"))
        #expect(!command(request, policy: policy).contains(" -b "))
    }

    @Test("cookie: is one -b after the jar's (libcurl sent them on one line); trusted redirects are --location-trusted")
    func requestCookieAndTrustedRedirects() {
        var options = plainOptions
        options.cookie = "session=abc; theme=dark"
        options.followRedirects = true
        options.unrestrictedAuth = true
        let request = HTTPRequest(url: "http://h/me", options: options)
        let sent = [HTTPSentRequest(requestLine: "GET /me HTTP/1.1",
                                    headers: HTTPHeaders([.init(name: "Cookie", value: "jar=1; session=abc; theme=dark")]))]
        let text = CurlCommand(policy: none).render(request, sent: sent)
        #expect(text == "curl -b jar=1 -b 'session=abc; theme=dark' --location-trusted --max-redirs 10 --max-time 1.5 --connect-timeout 0.25 --globoff http://h/me",
                "\(text)")
        // Only our own cookies on the line: no second -b for them.
        let alone = CurlCommand(policy: none).render(request, sent: [HTTPSentRequest(requestLine: "GET /me HTTP/1.1",
                                                                                   headers: ["Cookie": "session=abc; theme=dark"])])
        #expect(alone.components(separatedBy: " -b ").count == 2, "\(alone)")
    }
}
