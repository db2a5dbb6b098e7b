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
        #expect(command(request) == #"curl -H 'X-Note: it'\''s $HOME!' -H 'X-Empty;' --max-time 1.5 --connect-timeout 0.25 'http://127.0.0.1:1/a?x=1&y=2'"#)
    }

    @Test("HEAD is --head; PUT with a body is -X PUT; a body with no type empties curl's Content-Type")
    func methods() {
        #expect(command(HTTPRequest(method: "HEAD", url: "http://h/", options: plainOptions)).hasPrefix("curl --head "))
        let put = command(HTTPRequest(method: "PUT", url: "http://h/", body: .bytes(Array("a b".utf8)), options: plainOptions))
        #expect(put == "curl -X PUT -H Content-Type: -H Expect: --data-binary 'a b' --max-time 1.5 --connect-timeout 0.25 http://h/")
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
        #expect(form.contains("-F 'doc=@/tmp/a.pdf;type=application/pdf'"))
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
        #expect(text == "curl -L --max-redirs 3 --max-time 30 --connect-timeout 10 --http1.1 --compressed --proxy http://127.0.0.1:3128 -k --cacert /ca.pem --cert /c.p12 --cert-type P12 https://h/")
    }

    @Test("each secret is its named variable, exported on a comment line; a query value goes through --url-query; other forms are ***")
    func secrets() throws {
        let policy = MaskingPolicy(secrets: [("s3cr\"et'x-long-enough-42", "api_key"), ("Bearer tok-123456", nil), ("tok-123456", "token")])
        let request = HTTPRequest(method: "POST", url: "http://h/p?k=s3cr%22et%27x-long-enough-42&z=1", headers: ["Authorization": "Bearer tok-123456"],
                                  body: .bytes(Array(#"{"k":"s3cr\"et'x-long-enough-42","t":"tok-123456"}"#.utf8)), options: plainOptions)
        let lines = CurlCommand(policy: policy).render(request).split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(lines)")
        #expect(lines[0] == "# export COURIER_SECRET_TOKEN=…")
        #expect(lines[1] == "# export COURIER_SECRET_API_KEY=…")
        #expect(lines[2].hasPrefix("# *** stands for a secret"))
        #expect(lines[3].contains(#"-H "Authorization: Bearer $COURIER_SECRET_TOKEN""#))
        #expect(lines[3].contains(#"--data-binary '{"k":"***","t":"'"$COURIER_SECRET_TOKEN"'"}'"#))
        #expect(lines[3].contains(#"--url-query "k=$COURIER_SECRET_API_KEY""#))
        #expect(lines[3].hasSuffix(" 'http://h/p?z=1'"))
        for line in lines { #expect(!line.contains("tok-123456") && !line.contains("s3cr")) }
    }
    @Test("a form field holding a secret goes through --data-urlencode, the other fields as sent, in order")
    func formSecret() throws {
        let secret = "p&ss word+/x-42"
        let policy = MaskingPolicy(secrets: [(secret, "password")])
        let body = "user=bob&password=p%26ss%20word%2B%2Fx-42&z=1"
        let request = HTTPRequest(method: "POST", url: "http://h/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                  body: .bytes(Array(body.utf8)), options: plainOptions)
        let lines = CurlCommand(policy: policy).render(request).split(separator: "\n").map(String.init)
        #expect(lines == ["# export COURIER_SECRET_PASSWORD=…",
                          "curl -H 'Content-Type: application/x-www-form-urlencoded' -H Expect: --data-binary user=bob"
                            + #" --data-urlencode "password=$COURIER_SECRET_PASSWORD" --data-binary z=1"#
                            + " --max-time 1.5 --connect-timeout 0.25 http://h/login"])
    }

    @Test("Basic credentials holding a declared secret are -u \"user:$VARIABLE\"; others stay a header")
    func basicSecret() {
        let policy = MaskingPolicy(secrets: [("pa:ss word-42", "password")])
        let header = "Basic " + Data("bob:pa:ss word-42".utf8).base64EncodedString()
        let request = HTTPRequest(url: "http://h/", headers: ["Authorization": header], options: plainOptions)
        #expect(command(request, policy: policy) == #"curl -u "bob:$COURIER_SECRET_PASSWORD" --max-time 1.5 --connect-timeout 0.25 http://h/"#)
        let unnamed = MaskingPolicy(secrets: [(header, nil)])
        #expect(command(request, policy: unnamed).hasPrefix(#"curl -H "Authorization: $COURIER_SECRET_1""#))
    }

    @Test("the Cookie libcurl added from its jar is -b, as a variable when it is a secret; the request's own Cookie is not repeated")
    func jarCookie() {
        let policy = MaskingPolicy(secrets: [("session=abc123xyz", nil), ("abc123xyz", nil)])
        let request = HTTPRequest(url: "http://h/me", headers: ["Cookie": "lang=en"], options: plainOptions)
        let sent = [HTTPSentRequest(requestLine: "GET /me HTTP/1.1",
                                    headers: HTTPHeaders([.init(name: "Host", value: "h"), .init(name: "Cookie", value: "lang=en"),
                                                          .init(name: "Cookie", value: "session=abc123xyz")]))]
        let text = CurlCommand(policy: policy).render(request, sent: sent)
        #expect(text.hasSuffix(#"curl -H 'Cookie: lang=en' -b "$COURIER_SECRET_1" --max-time 1.5 --connect-timeout 0.25 http://h/me"#), "\(text)")
        #expect(!text.contains("abc123"))
        #expect(!command(request, policy: policy).contains(" -b "))
    }
}
