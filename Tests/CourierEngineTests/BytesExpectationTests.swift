@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow
import Foundation
import Testing

/// `expect.bytes` and `bytes:` captures against a response: each view, the decoded and the
/// raw bytes, `equals_file`, and what failures say.
@Suite struct BytesExpectationTests {
    /// "✓ ok": 4 characters, 6 bytes.
    private static let body = "✓ ok"
    private static let sha = "8a3c5b4ad1e1b3c3e5d5b5f0b0e7f5f3e0b3d2b1f0c6a0e4b3c2b1a0f9e8d7c6"

    private static func step(_ expect: String, capture: String = "") -> String {
        """
        steps:
          - request: { url: http://h/x }
            expect:
              bytes: \(expect)
        \(capture)
        """
    }

    private static func passedSubjects(_ run: EngineRun) -> [String] {
        run.steps.first?.attempts.last?.expectations.filter { !$0.failed }.map(\.subject) ?? []
    }

    @Test func eachViewReadsTheDecodedBody() async throws {
        let bytes = Array(Self.body.utf8)
        let yaml = Self.step("""
        { length: 6, sha256: \(SHA256.hexDigest(bytes)), md5: \(MD5.hexDigest(bytes)), hex: e29c93206f6b, base64: 4pyTIG9r }
        """)
        let run = try await runStep(yaml, response: textResponse(200, Self.body))
        #expect(run.steps[0].outcome.isPassed, "\(run.failures())")
        #expect(Self.passedSubjects(run) == ["status", "bytes length", "bytes sha256", "bytes md5", "bytes hex", "bytes base64"])
        // A step that reads no raw bytes lets libcurl decode.
        #expect(run.requests[0].options.keepsEncodedBody == false)
    }

    /// `body: { length: }` counts characters; `bytes.length` counts bytes.
    @Test func charactersAndBytesAreTwoLengths() async throws {
        let yaml = """
        steps:
          - request: { url: http://h/x }
            expect:
              body: { length: 4 }
              bytes: { length: 6 }
        """
        let run = try await runStep(yaml, response: textResponse(200, Self.body))
        #expect(run.steps[0].outcome.isPassed, "\(run.failures())")
    }

    @Test func aFailedViewShowsExpectedAndActual() async throws {
        let yaml = Self.step("{ length: { gt: 10 }, hex: { starts_with: 1f8b } }")
        let run = try await runStep(yaml, response: textResponse(200, Self.body))
        let failures = run.failures()
        #expect(failures.map(\.subject) == ["bytes length", "bytes hex"])
        #expect(failures.map(\.message) == ["bytes length: expected > 10, got 6", "bytes hex: expected to start with \"1f8b\""])
        #expect(failures[0].actual?.rendered == "6")
        #expect(failures[1].actual?.rendered == "\"e29c93206f6b\"")
        starts(failures[1].location, at: "starts_with", in: yaml)
    }

    @Test func rawReadsTheBytesAsReceived() async throws {
        let encoded: [UInt8] = [0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]
        let response = HTTPResponse(status: 200, headers: ["Content-Encoding": "gzip"], body: Array(Self.body.utf8), encodedBody: encoded)
        let yaml = """
        steps:
          - request: { url: http://h/x }
            expect:
              bytes: { raw: true, hex: { starts_with: 1f8b }, length: 6 }
              body: ✓ ok
            capture:
              wire: { bytes: sha256, raw: true }
              plain: { bytes: length }
        """
        let run = try await runStep(yaml, response: response)
        #expect(run.steps[0].outcome.isPassed, "\(run.failures())")
        #expect(run.requests[0].options.keepsEncodedBody)
        #expect(run.steps[0].captures.map(\.value) == [.string(SHA256.hexDigest(encoded)), .number(JSONNumber(6))])
        #expect(Self.passedSubjects(run).prefix(4) == ["status", "body", "raw bytes length", "raw bytes hex"])
    }

    /// Nothing was undone (no Content-Encoding): the raw bytes are the body.
    @Test func rawWithoutAnEncodingIsTheBody() async throws {
        let run = try await runStep(Self.step("{ raw: true, base64: 4pyTIG9r }"), response: textResponse(200, Self.body))
        #expect(run.steps[0].outcome.isPassed, "\(run.failures())")
    }

    @Test func aDigestInATemplateIsRendered() async throws {
        let yaml = """
        vars: { digest: \(MD5.hexDigest(Array(Self.body.utf8))) }
        steps:
          - request: { url: http://h/x }
            expect:
              bytes: { md5: "{{ digest }}" }
        """
        let run = try await runStep(yaml, response: textResponse(200, Self.body))
        #expect(run.steps[0].outcome.isPassed, "\(run.failures())")
    }

    // MARK: - equals_file

    private static func withFile(_ bytes: [UInt8], _ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(bytes).write(to: directory.appendingPathComponent("expected.bin"))
        try await body(directory.path)
    }

    private static func fileRun(_ fileBytes: [UInt8], body: String, raw: Bool = false) async throws -> EngineRun {
        var result: EngineRun?
        try await withFile(fileBytes) { directory in
            let yaml = step("{ equals_file: expected.bin\(raw ? ", raw: true" : "") }")
            result = try await run(yaml, transport: FakeTransport(always: textResponse(200, body)), path: directory + "/t.yaml")
        }
        return try #require(result)
    }

    @Test func equalsFilePassesWithTheSameBytes() async throws {
        let run = try await Self.fileRun(Array(Self.body.utf8), body: Self.body)
        #expect(run.steps[0].outcome.isPassed, "\(run.failures())")
        let passed = try #require(run.steps[0].attempts.last?.expectations.first { $0.subject == "bytes" })
        #expect(passed.expected?.rendered == "the bytes of expected.bin: 6 bytes, sha256 \(SHA256.hexDigest(Array(Self.body.utf8)))")
    }

    @Test func equalsFileNamesTheFirstDifference() async throws {
        let run = try await Self.fileRun(Array("✓ OK".utf8), body: Self.body, raw: true)
        let failure = try #require(run.failures().first)
        #expect(failure.message == "raw bytes: differ from 'expected.bin' at byte 4 (expected 0x4f, got 0x6f)")
        #expect(failure.actual?.rendered == "6 bytes, sha256 \(SHA256.hexDigest(Array(Self.body.utf8)))")
    }

    @Test(arguments: [("✓ o", "the body has 6 bytes, 'expected.bin' 5; they agree up to where 'expected.bin' ends"),
                      ("✓ okay", "the body has 6 bytes, 'expected.bin' more")])
    func equalsFileOfAnotherLength(file: String, message: String) async throws {
        let run = try await Self.fileRun(Array(file.utf8), body: Self.body)
        #expect(run.failures().map(\.message) == ["bytes: " + message])
    }

    @Test func aTemplatedFileMissingAtRunTimeFailsTheCheck() async throws {
        let yaml = """
        vars: { name: nowhere }
        steps:
          - request: { url: http://h/x }
            expect:
              bytes: { equals_file: "{{ name }}.bin" }
        """
        let run = try await runStep(yaml, response: textResponse(200, Self.body))
        #expect(run.failures().map(\.message) == ["bytes: cannot read 'nowhere.bin' for 'equals_file': no such file"])
    }
}
