import Foundation
import Testing

/// Request bodies as the server receives them: json, form, multipart, body, body_file.
@Suite struct BodyTests {
    @Test("json and body with content_type arrive as sent, with their Content-Type")
    func jsonAndText() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let run = try await TransportRun.run("""
            name: bodies
            steps:
              - name: json body
                request:
                  method: POST
                  url: \(http.baseURL)/echo
                  json: { name: "Zoë", n: 3, ok: true, nested: [1, { a: null }] }
                expect:
                  json:
                    $.content_type: application/json
                    $.json: { name: "Zoë", n: 3, ok: true, nested: [1, { a: null }] }
              - name: text body
                request:
                  method: PUT
                  url: \(http.baseURL)/echo
                  body: "<a>1 & 2</a>"
                  content_type: application/xml
                expect:
                  json:
                    $.method: PUT
                    $.content_type: application/xml
                    $.body: "<a>1 & 2</a>"
            """)
        #expect(run.result.status == 0, run.result.context)
    }

    @Test("form: reserved characters are percent-encoded, never dropped")
    func formEncoding() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let run = try await TransportRun.run("""
            name: form
            steps:
              - name: form body
                request:
                  method: POST
                  url: \(http.baseURL)/echo
                  form:
                    q: "a&b=c"
                    pct: "100%"
                    plus: "1+1"
                    space: "two words"
                    utf: "ü/?#"
                    empty: ""
                expect:
                  json:
                    $.content_type: application/x-www-form-urlencoded
                    $.body: "q=a%26b%3Dc&pct=100%25&plus=1%2B1&space=two%20words&utf=%C3%BC%2F%3F%23&empty="
            """)
        #expect(run.result.status == 0, run.result.context)
    }

    @Test("multipart: value and file parts, per-part content_type and filename, repeated names, bytes intact")
    func multipart() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let photo = Self.pattern(300_000)
        let notes = Array("line one\nline two\n".utf8)
        let run = try await TransportRun.run("""
            name: multipart
            steps:
              - name: upload parts
                request:
                  method: POST
                  url: \(http.baseURL)/multipart
                  multipart:
                    - { name: caption, value: "Sunset & sea; \\"quoted\\"" }
                    - { name: meta, value: '{"a":1}', content_type: application/json }
                    - { name: file, file: data/photo.bin, content_type: image/png }
                    - { name: file, file: data/notes.txt, filename: renamed.txt, content_type: text/plain }
                    - { name: tag, value: one }
                    - { name: tag, value: two }
                expect:
                  status: 200
                  json:
                    $.count: 6
                    $.parts[*].name: [caption, meta, file, file, tag, tag]
                    $.parts[0].value: "Sunset & sea; \\"quoted\\""
                    $.parts[0].filename: null
                    $.parts[1].content_type: application/json
                    $.parts[1].value: '{"a":1}'
                    $.parts[2].filename: photo.bin
                    $.parts[2].content_type: image/png
                    $.parts[2].size: 300000
                    $.parts[2].sha256: \(Self.sha256(photo))
                    $.parts[3].filename: renamed.txt
                    $.parts[3].content_type: text/plain
                    $.parts[3].sha256: \(Self.sha256(notes))
                    $.parts[4].value: one
                    $.parts[5].value: two
            """, binaryFiles: ["data/photo.bin": photo, "data/notes.txt": notes])
        #expect(run.result.status == 0, run.result.context)
    }

    @Test("Expect: empty by default (no 100-continue stall on 2 MB uploads), sent when the workflow sets it")
    func expectHeader() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let big = Self.pattern(2_000_000)
        let digest = Self.sha256(big)
        let run = try await TransportRun.run("""
            name: expect
            steps:
              - name: body_file without Expect
                request: { method: POST, url: \(http.baseURL)/discard, body_file: big.bin, content_type: application/octet-stream }
                expect:
                  json: { $.bytes: 2000000, $.sha256: \(digest), $.expect_100: false }
              - name: multipart without Expect
                request:
                  method: POST
                  url: \(http.baseURL)/discard
                  multipart: [{ name: f, file: big.bin }]
                expect:
                  json: { $.expect_100: false, $.bytes: { gt: 2000000 } }
              - name: body_file with Expect set
                request:
                  method: PUT
                  url: \(http.baseURL)/discard
                  headers: { Expect: 100-continue }
                  body_file: big.bin
                expect:
                  json: { $.bytes: 2000000, $.sha256: \(digest), $.expect_100: true }
            """, binaryFiles: ["big.bin": big])
        #expect(run.result.status == 0, run.result.context)
        // Each upload would stall ~1 s waiting for a 100 Continue that curl asked for.
        for name in ["body_file without Expect", "multipart without Expect"] {
            #expect(run.seconds(name) < 0.9, "\(name) took \(run.seconds(name)) s")
        }
    }

    @Test("a body_file or multipart file missing at run time: file_unreadable naming the file")
    func missingFiles() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let run = try await TransportRun.run("""
            name: missing files
            vars: { missing: nowhere/gone.bin }
            continue_on_failure: true
            steps:
              - name: missing body_file
                request: { method: POST, url: \(http.baseURL)/discard, body_file: "{{ missing }}" }
              - name: missing multipart file
                request:
                  method: POST
                  url: \(http.baseURL)/multipart
                  multipart: [{ name: doc, file: "{{ missing }}" }]
              - name: directory as body_file
                request: { method: POST, url: \(http.baseURL)/discard, body_file: "{{ 'nowhere' }}" }
            """, files: ["nowhere/placeholder": ""])
        #expect(run.result.status == 1, run.result.context)
        // The workflow's folder is the current directory here: the path is shown as resolved.
        let path = "nowhere/gone.bin"
        for step in ["missing body_file", "missing multipart file"] {
            let error = try #require(run.error(step), "\(step)\n\(run.result.context)")
            #expect(error.type == "file_unreadable")
            #expect(error.message?.contains(path) == true, "\(String(describing: error.message))")
            #expect(error.message?.contains("no such file") == true, "\(String(describing: error.message))")
        }
        #expect(run.error("directory as body_file")?.message?.contains("is a directory") == true, run.result.context)
        #expect(run.result.stdout.contains(path), run.result.context)
    }

    // MARK: - Helpers

    /// `count` bytes of a non-repeating-looking pattern.
    static func pattern(_ count: Int) -> [UInt8] {
        var state: UInt32 = 2_463_534_242
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// coreutils' `sha256sum`: the integration tests link no project module, and a second
    /// SHA-256 here would only copy CourierEngine's.
    static func sha256(_ bytes: [UInt8]) -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sha256-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let output = Pipe()
        process.standardOutput = output
        do {
            try Data(bytes).write(to: file)
            try process.run()
        } catch {
            return "sha256sum failed: \(error)"
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}

extension TransportRun {
    static func run(_ yaml: String, binaryFiles: [String: [UInt8]], files: [String: String] = [:], arguments: [String] = [],
                    environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) async throws -> TransportRun {
        let workspace = try Workspace()
        for (path, bytes) in binaryFiles {
            let url = workspace.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return try await run(yaml, in: workspace, files: files, arguments: arguments, environment: environment, sourceLocation: sourceLocation)
    }
}
