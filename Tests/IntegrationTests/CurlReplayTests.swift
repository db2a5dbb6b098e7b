import Foundation
import Testing

/// `--curl`'s promise (issue 21, docs/workflow-format.md §11): each printed command, run with the
/// variables it names exported, sends a request equal byte for byte to the one Courier sent —
/// both recorded by the same raw echo server — but for the `User-Agent` value and the multipart
/// boundary. A request Courier refused prints no command.
struct CurlReplayTests {
    static let token = "tok-It's a $ecret! `x` \\n 42"
    static let apiKey = "key/with+plus&amp=1 \"q\" ~é"
    static let password = "pw&1 +/=Zq8-form;%"
    /// The form the workflow sends them in: Courier's one percent-encoding (RFC 3986 unreserved kept).
    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? ""
    }
    static let variables = [
        "COURIER_SECRET_TOKEN": token,
        "COURIER_SECRET_API_KEY": apiKey, "COURIER_SECRET_API_KEY_PCT": percentEncoded(apiKey),
        "COURIER_SECRET_PASSWORD": password, "COURIER_SECRET_PASSWORD_PCT": percentEncoded(password),
    ]
    static let oddFile = #"odd;name,"q".txt"#

    /// One step per case, each failing (the server answers 418), so each gets its command.
    static var workflow: String {
        let big = String(repeating: "0123456789", count: 7000)
        return """
        name: curl replay
        continue_on_failure: true
        secrets:
          token: "{{ env.TOKEN }}"
          api_key: "{{ env.API_KEY }}"
          password: "{{ env.PASSWORD }}"
        vars:
          evil: "a\\r\\nX-Injected: 1"
        steps:
          - name: plain GET
            request: { url: "{{ base_url }}/plain" }
            expect: { status: 200 }
          - name: query with secrets
            request:
              url: "{{ base_url }}/q?z=last&sig={{ api_key | url_encode }}&a=%7e"
              query: { k: "{{ api_key }}", plain: "a b", pw: "{{ password }}" }
            expect: { status: 200 }
          - name: JSON body
            request:
              method: PUT
              url: "{{ base_url }}/json"
              json: { a: 1, s: "it's \\"q\\" $HOME", list: [true, null] }
            expect: { status: 200 }
          - name: form with secret fields
            request:
              method: POST
              url: "{{ base_url }}/form"
              form: { user: bob, password: "{{ password }}", note: "x&y=z", again: "{{ password }}" }
            expect: { status: 200 }
          - name: raw body starting with @
            request:
              method: POST
              url: "{{ base_url }}/raw"
              body: "@/etc/hostname"
            expect: { status: 200 }
          - name: multipart with @ and < values and odd filenames
            request:
              method: POST
              url: "{{ base_url }}/multipart"
              multipart:
                - { name: at, value: "@/etc/hostname" }
                - { name: lt, value: "</etc/hostname", content_type: "text/plain; charset=utf-8" }
                - { name: "h=i", value: "named with =" }
                - { name: doc, file: '\(oddFile)', filename: 'up;lo,ad "x".txt' }
                - { name: plainfile, file: '\(oddFile)' }
            expect: { status: 200 }
          - name: globbing characters in the URL
            request: { url: "{{ base_url }}/glob/[1-3]/{a,b}?q=[x]" }
            expect: { status: 200 }
          - name: headers with odd characters
            request:
              url: "{{ base_url }}/headers"
              headers:
                X-Odd: "it's $HOME! `x` \\"q\\" ;,<@/etc/hostname \\\\ é"
                X-Empty: ""
                X-At: "@/etc/hostname"
            expect: { status: 200 }
          - name: refused CR LF header
            request:
              url: "{{ base_url }}/evil"
              headers: { X-Evil: "{{ evil }}" }
            expect: { status: 200 }
          - name: secret in a header
            request:
              url: "{{ base_url }}/auth"
              headers: { Authorization: "Bearer {{ token }}", X-Key: "k={{ api_key }}" }
            expect: { status: 200 }
          - name: basic credentials
            request:
              url: "{{ base_url }}/basic"
              auth: { basic: { username: bob, password: "{{ password }}" } }
            expect: { status: 200 }
          - name: body too large to print
            request:
              method: POST
              url: "{{ base_url }}/big"
              body: "\(big)"
            expect: { status: 200 }
        """
    }

    @Test("each --curl command sends the request Courier sent, byte for byte (but User-Agent and boundary); a refused one has no command")
    func replays() async throws {
        let server = try await RawEchoServer.start()
        defer { server.stop() }
        let workspace = try Workspace()
        try workspace.write("flow.yaml", Self.workflow)
        try workspace.write(Self.oddFile, "file content;\r\n with , and \"\n")
        let result = try await Courier.run(
            ["run", "flow.yaml", "--var", "base_url=\(server.baseURL)", "--curl", "--json", "report.json", "--junit", "junit.xml"],
            in: workspace.url, environment: ["TOKEN": Self.token, "API_KEY": Self.apiKey, "PASSWORD": Self.password])
        #expect(result.status == 1, result.context)
        let steps = try Self.steps(in: workspace.url.appendingPathComponent("report.json"))
        try #require(steps.count == 12, "\(steps.map(\.name))")
        let sentCount = try server.count()
        #expect(sentCount == 11, "one request per step, but the refused one")

        var courierIndex = 0
        for step in steps {
            let curl = try #require(step.curl, "no --curl text for '\(step.name)'")
            if step.name == "refused CR LF header" {
                #expect(curl.hasPrefix("# no curl command: ") && !curl.contains("\ncurl") && !curl.hasPrefix("curl"), "\(curl)")
                #expect(!curl.contains("Injected"), "\(curl)")
                continue
            }
            let sent = try server.request(courierIndex)
            courierIndex += 1
            let command = try #require(curl.split(separator: "\n").last.map(String.init), "\(curl)")
            #expect(command.hasPrefix("curl ") && command.contains(" --globoff "), "\(step.name): \(command)")
            if command.contains("@body.bin") {
                try Data(Self.body(of: sent)).write(to: workspace.url.appendingPathComponent("body.bin"))
            }
            var environment = ProcessInfo.processInfo.environment
            for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] {
                environment[name] = nil
            }
            for line in curl.split(separator: "\n") where line.hasPrefix("# export ") {
                let name = String(line.dropFirst("# export ".count).prefix { $0 != "=" })
                let value = try #require(Self.variables[name], "\(step.name): unknown variable \(name)")
                environment[name] = value
            }
            let before = try server.count()
            let run = try await ProcessRunner.run("/bin/sh", ["-c", command + " -s -o /dev/null"], in: workspace.url,
                                                  environment: environment, timeout: .seconds(30))
            #expect(run.status == 0, "\(step.name): curl failed: \(run.allOutput)\n\(command)")
            let after = try server.count()
            #expect(after == before + 1, "\(step.name): the command sent \(after - before) requests")
            guard run.status == 0 else { continue }
            let replayed = try server.request(before)
            let expected = Self.normalized(sent), actual = Self.normalized(replayed)
            #expect(expected == actual, """
                \(step.name): the command sent another request
                --- Courier ---
                \(String(decoding: expected, as: UTF8.self))
                --- curl ---
                \(String(decoding: actual, as: UTF8.self))
                --- command ---
                \(command)
                """)
        }

        // Nothing performs the injection: no output carries a command for the refused step.
        let junit = try String(contentsOf: workspace.url.appendingPathComponent("junit.xml"), encoding: .utf8)
        for (place, text) in [("console", result.stdout), ("JUnit", junit)] {
            // The reason names the header; no command line carries it.
            #expect(!text.split(separator: "\n").contains { $0.drop(while: \.isWhitespace).hasPrefix("curl ") && $0.contains("X-Evil") },
                    "a command for the refused request in the \(place)")
            for secret in [Self.token, Self.apiKey, Self.password] {
                #expect(!text.contains(secret) && !text.contains(Self.percentEncoded(secret)), "a secret in the \(place)")
            }
        }
        #expect(result.stdout.contains("# no curl command: Courier did not send this request (invalid_header)"), result.context)
    }

    // MARK: - Helpers

    struct Step {
        var name: String
        var curl: String?
    }

    /// Each step's name and its deciding attempt's `curl`, from the JSON report.
    static func steps(in report: URL) throws -> [Step] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let run = object?["run"] as? [String: Any]
        let workflows = run?["workflows"] as? [[String: Any]] ?? []
        return (workflows.first?["steps"] as? [[String: Any]] ?? []).map { step in
            let attempts = step["attempts"] as? [[String: Any]] ?? []
            return Step(name: step["name"] as? String ?? "", curl: attempts.last?["curl"] as? String)
        }
    }

    static func body(of request: [UInt8]) -> [UInt8] {
        guard let end = request.firstRange(of: Array("\r\n\r\n".utf8)) else { return [] }
        return Array(request[end.upperBound...])
    }

    /// The request with its `User-Agent` value and multipart boundary replaced by placeholders.
    static func normalized(_ request: [UInt8]) -> [UInt8] {
        guard let end = request.firstRange(of: Array("\r\n\r\n".utf8)) else { return request }
        let head = String(decoding: request[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        var boundary: String?
        for (index, line) in lines.enumerated() {
            let lower = line.lowercased()
            if lower.hasPrefix("user-agent:") { lines[index] = "User-Agent: <agent>" }
            if lower.hasPrefix("content-type: multipart/"), let range = line.range(of: "boundary=") {
                boundary = String(line[range.upperBound...])
            }
        }
        var out = Array(lines.joined(separator: "\r\n").utf8) + Array(request[end.lowerBound...])
        if let boundary, !boundary.isEmpty {
            out = out.replacing(Array(boundary.utf8), with: Array("<boundary>".utf8))
        }
        return out
    }
}
