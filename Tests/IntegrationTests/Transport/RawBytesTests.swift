import Foundation
import Testing

/// `expect.bytes` and `bytes:` captures against real servers: one request gives the body as
/// received and as decoded (Courier undoing gzip, deflate and br itself), `--max-body-size`
/// bounds both, and every report shows the checks' expected and actual values.
@Suite struct RawBytesTests {
    /// The sha256 of `ServerProcess.brotliBase64`'s bytes (74 bytes of br) and of the
    /// JSON they decode to (71 bytes).
    static let brotliSHA = "1da53061ef54f8e282cd06c1026aa00a132221c4ca1ba23316e4826e44be0470"
    static let brotliTextSHA = "fa6a4d005110514916aa308e5eaaa1cbac7dff2590c49228fc75a9a3184dabda"

    @Test("raw: true — gzip and deflate from one request each: the wire bytes and the decoded JSON, Accept-Encoding naming only what Courier undoes")
    func gzipAndDeflate() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let run = try await TransportRun.run("""
            name: raw
            steps:
              - name: gzip
                request: { url: \(http.baseURL)/gzip }
                expect:
                  headers: { Content-Encoding: gzip }
                  json:
                    $.gzipped: true
                    "$.headers[?@[0] == 'Accept-Encoding'][1]": ["gzip, deflate, br"]
                  bytes: { raw: true, hex: { starts_with: 1f8b08 } }
                capture:
                  wire: { bytes: length, raw: true }
                  plain: { bytes: length }
              - name: smaller on the wire
                request: { url: \(http.baseURL)/echo }
                expect: { status: 200 }
                if: "{{ wire < plain }}"
              - name: deflate
                request: { url: \(http.baseURL)/deflate }
                expect:
                  json: { $.deflated: true }
                  bytes: { raw: true, hex: { starts_with: "78" } }
              - name: plain libcurl decoding
                request: { url: \(http.baseURL)/gzip }
                expect:
                  json: { "$.headers[?@[0] == 'Accept-Encoding'][1]": { each: { not: { eq: "gzip, deflate, br" } } } }
            """)
        #expect(run.result.status == 0, run.result.context)
        #expect(run.result.stdout.line(containing: "PASS", "smaller on the wire") != nil, run.result.context)
        // One request per step: the two views come from the same response.
        #expect(run.result.stdout.contains(", 4 requests ("), run.result.context)
    }

    @Test("br from nginx: raw sha256 and equals_file against the encoded file, the decoded body against its text")
    func brotli() async throws {
        guard TransportFixtures.usesNginx(toCheck: "raw br bodies") else { return }
        let nginx = try await TransportFixtures.shared.server(.nginx)
        let ca = try await TransportFixtures.shared.certificate("ca.pem")
        let workspace = try Workspace()
        try Data(base64Encoded: ServerProcess.brotliBase64)!.write(to: workspace.url.appendingPathComponent("brotli.br"))
        _ = try workspace.write("brotli.txt", ServerProcess.brotliText)
        let run = try await TransportRun.run("""
            name: br
            defaults: { tls: { ca: \(ca) } }
            steps:
              - name: both views
                request: { url: \(nginx.baseURL)/brotli.json }
                expect:
                  json: { $.encoding: br }
                  bytes: { raw: true, sha256: \(Self.brotliSHA), length: 74, equals_file: brotli.br }
                capture:
                  decoded: { bytes: sha256 }
              - name: decoded
                request: { url: \(nginx.baseURL)/brotli.json }
                expect:
                  bytes: { sha256: \(Self.brotliTextSHA), equals_file: brotli.txt, length: 71 }
                  body: { length: 71 }
              - name: captured digest
                request: { url: \(nginx.baseURL)/health }
                expect: { status: 200 }
                if: "{{ decoded == '\(Self.brotliTextSHA)' }}"
            """, in: workspace)
        #expect(run.result.status == 0, run.result.context)
        #expect(run.result.stdout.line(containing: "PASS", "captured digest") != nil, run.result.context)
    }

    @Test("--max-body-size bounds the decoded size too: a 106-byte br bomb of 64 MiB is an error, not an OOM; a corrupt body says so")
    func bombAndCorrupt() async throws {
        guard TransportFixtures.usesNginx(toCheck: "the br bomb and a corrupt body") else { return }
        let nginx = try await TransportFixtures.shared.server(.nginx)
        let ca = try await TransportFixtures.shared.certificate("ca.pem")
        let run = try await TransportRun.run("""
            name: bombs
            defaults: { tls: { ca: \(ca) } }
            continue_on_failure: true
            steps:
              - name: bomb
                request: { url: \(nginx.baseURL)/bomb.json }
                expect: { bytes: { raw: true, length: 106 } }
              - name: corrupt
                request: { url: \(nginx.baseURL)/corrupt.json }
                expect: { bytes: { raw: true, length: 15 } }
            """, arguments: ["--max-body-size", "1MB"])
        #expect(run.result.status == 1, run.result.context)
        let out = run.result.stdout
        #expect(out.contains("the decoded response body is larger than 1 MB"), run.result.context)
        #expect(out.contains("the body could not be decoded as gzip: incorrect header check"), run.result.context)
        #expect(out.contains("set 'compressed: false' to receive it as sent"), run.result.context)
    }

    @Test("a failed bytes check shows its expected and actual values in the console, JUnit, JSON and HTML reports")
    func reports() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let workspace = try Workspace()
        try Data([0, 1, 2, 9]).write(to: workspace.url.appendingPathComponent("four.bin"))
        let run = try await TransportRun.run("""
            name: reports
            continue_on_failure: true
            steps:
              - name: digest
                request: { url: "\(http.baseURL)/bytes?n=4" }
                expect: { bytes: { sha256: \(String(repeating: "0", count: 64)), length: { gte: 4 } } }
              - name: file
                request: { url: "\(http.baseURL)/bytes?n=4" }
                expect: { bytes: { equals_file: four.bin } }
            """, in: workspace, arguments: ["--json", "report.json", "--html", "report.html"])
        #expect(run.result.status == 1, run.result.context)
        let actual = "054edec1d0211f624fed0cbca9d4f9400b0e491c43742af2c5b0abebf0c990d8"
        let out = run.result.stdout
        #expect(out.contains("bytes sha256: expected \"\(String(repeating: "0", count: 64))\", got \"\(actual)\""), run.result.context)
        #expect(out.contains("bytes: differ from 'four.bin' at byte 3 (expected 0x09, got 0x03)"), run.result.context)
        let junit = try run.workspace.read("junit.xml")
        #expect(junit.contains("bytes: differ from &apos;four.bin&apos; at byte 3") || junit.contains("bytes: differ from 'four.bin' at byte 3"), "\(junit)")
        let json = try run.workspace.read("report.json")
        #expect(json.contains("\"subject\": \"bytes sha256\""), "\(json.prefix(4000))")
        #expect(json.contains(actual))
        #expect(json.contains("4 bytes, sha256 \(actual)"))
        let html = try run.workspace.read("report.html")
        #expect(html.contains("bytes sha256") && html.contains(actual))
    }
}
