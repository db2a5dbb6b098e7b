import CourierDiagnostics
import CourierJSON
@testable import CourierWorkflow
import Testing

/// `expect.bytes` and `bytes:` captures: the valid forms, and every problem a load error at
/// its file:line:col, unknown keys with a did-you-mean.
@Suite struct BytesDecodingTests {
    private static let sha = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"

    /// `bytes: <value>` under `expect:` on line 4, column 7.
    private func expectYAML(_ value: String) -> String {
        "steps:\n  - request: { url: http://h/ }\n    expect:\n      bytes: \(value)\n"
    }

    private func problems(_ yaml: String, sources: SourceStore = SourceStore()) -> [String] {
        switch decodeWorkflow(text: yaml, path: "flows/t.yaml", sources: sources) {
        case .success: return []
        case .failure(let list): return list.diagnostics.map(\.description)
        }
    }

    private func expectations(_ value: String) throws -> [CourierWorkflow.Expectation] {
        try decodeWorkflow(text: expectYAML(value), path: "flows/t.yaml", sources: SourceStore()).get().steps[0].expect.items
    }

    private static func describe(_ target: ResponseTarget) -> String {
        guard case .bytes(let view, let which) = target else { return "not bytes" }
        return "\(which == .raw ? "raw " : "")\(view.key)"
    }

    @Test func eachViewIsAnExpectationReadingTheChosenBytes() throws {
        let items = try expectations("{ length: { gt: 0 }, sha256: \(Self.sha), md5: 900150983cd24fb0d6963f7d28e17f72, hex: { starts_with: 1f8b }, base64: YWJj }")
        #expect(items.map { Self.describe($0.target) } == ["length", "sha256", "md5", "hex", "base64"])
        let raw = try expectations("{ raw: true, length: 20 }")
        #expect(raw.map { Self.describe($0.target) } == ["raw length"])
        let step = try decodeWorkflow(text: expectYAML("{ raw: true, length: 20 }"), path: "t.yaml", sources: SourceStore()).get().steps[0]
        #expect(step.readsRawBytes)
        let decoded = try decodeWorkflow(text: expectYAML("{ length: 20 }"), path: "t.yaml", sources: SourceStore()).get().steps[0]
        #expect(!decoded.readsRawBytes)
    }

    /// Digests and hex are compared in lower case and base64 in its padded form, so a literal
    /// written otherwise is brought to that form at load, not failed after the request.
    @Test func literalsAreNormalised() throws {
        let items = try expectations("{ sha256: \(Self.sha.uppercased()), hex: \"1F8B\", base64: YWI }")
        let literals = items.compactMap { item -> String? in
            guard case .matcher(.equals(let value)) = item.check else { return nil }
            return value.template?.literalText
        }
        #expect(literals == [Self.sha, "1f8b", "YWI="])
    }

    @Test func aDigestWrittenAsDigitsIsText() throws {
        // YAML reads an all-digit md5 as a number; it is still the digest's text, zeros and all.
        let digits = "00" + String(repeating: "1", count: 30)
        let items = try expectations("{ md5: \(digits) }")
        guard case .matcher(.equals(let value))? = items.first?.check else { Issue.record("no matcher"); return }
        #expect(value.template?.literalText == digits)
    }

    @Test(arguments: [
        ("{ sha265: abc }", "flows/t.yaml:4:16: error: unknown key 'sha265' in 'bytes'; did you mean 'sha256'?"),
        ("{ lenght: 3 }", "flows/t.yaml:4:16: error: unknown key 'lenght' in 'bytes'; did you mean 'length'?"),
        ("{ sha256: abc }", "flows/t.yaml:4:24: error: expected 64 hex digits for 'bytes.sha256' (the SHA-256 digest as sha256sum prints it), found 3 characters 'abc'"),
        ("{ md5: \(String(repeating: "g", count: 32)) }", "flows/t.yaml:4:21: error: expected 32 hex digits for 'bytes.md5' (the MD5 digest as md5sum prints it), found 32 characters '\(String(repeating: "g", count: 32))'"),
        ("{ hex: abc }", "flows/t.yaml:4:21: error: expected hex digits, two per byte, for 'bytes.hex', found 'abc'"),
        ("{ hex: { starts_with: 1F8B } }", "flows/t.yaml:4:23: error: hex digits are compared in lower case; write '1f8b'"),
        ("{ base64: \"a*b\" }", "flows/t.yaml:4:24: error: expected base64 (RFC 4648, '+' and '/') for 'bytes.base64', found 'a*b'"),
        ("{ length: many }", "flows/t.yaml:4:24: error: expected a whole number of bytes for 'bytes.length', found 'many'"),
        ("{ length: { gt: 1, lenth: 2 } }", "flows/t.yaml:4:33: error: unknown predicate 'lenth'; did you mean 'length'?"),
        ("{ raw: true }", "flows/t.yaml:4:16: error: 'raw' alone checks nothing; add what to check, like 'sha256' or 'length'"),
        ("{ raw: yes, length: 1 }", "flows/t.yaml:4:21: error: expected true or false for 'raw', found a string ('yes' is a string in YAML 1.2; write true or false)"),
        ("{}", "flows/t.yaml:4:14: error: empty 'bytes'; check one of 'length', 'sha256', 'md5', 'hex', 'base64', 'equals_file'"),
        ("abc", "flows/t.yaml:4:14: error: expected a mapping for 'bytes', found a string"),
    ])
    func aBadBytesExpectationIsALoadError(value: String, message: String) {
        #expect(problems(expectYAML(value)) == [message])
    }

    @Test func aMisspeltKindIsSuggested() {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      bites: { length: 1 }\n"
        #expect(problems(yaml).first?.hasPrefix("flows/t.yaml:4:7: error: unknown key 'bites' in expect; did you mean 'bytes'?") == true)
    }

    // MARK: - equals_file

    @Test func aMissingEqualsFileIsALoadErrorAtItsPath() {
        #expect(problems(expectYAML("{ equals_file: fixtures/logo.png }")) == [
            "flows/t.yaml:4:29: error: no such file 'fixtures/logo.png' for 'equals_file' (looked for 'flows/fixtures/logo.png': "
                + "relative paths start at the directory of the file that names them)",
        ])
    }

    @Test func anExistingEqualsFileDecodesWithItsDirectory() throws {
        let sources = SourceStore()
        sources.register(path: "flows/fixtures/logo.png", text: "PNG")
        let workflow = try decodeWorkflow(text: expectYAML("{ equals_file: fixtures/logo.png, raw: true }"), path: "flows/t.yaml",
                                          sources: sources).get()
        guard case .equalsFile(let file)? = workflow.steps[0].expect.items.first?.check else { Issue.record("no file check"); return }
        #expect(file.path.literalText == "fixtures/logo.png")
        #expect(file.directory == "flows")
        #expect(workflow.steps[0].readsRawBytes)
    }

    @Test func aTemplatedEqualsFileWaitsForTheRun() {
        #expect(problems(expectYAML("{ equals_file: \"{{ name }}.bin\" }")).allSatisfy { !$0.contains("no such file") })
    }

    // MARK: - Captures

    /// `capture: { c: <value> }` on line 4, column 7.
    private func captureYAML(_ value: String) -> String {
        "steps:\n  - request: { url: http://h/ }\n    capture:\n      c: \(value)\n"
    }

    @Test func aBytesCaptureNamesItsViewAndBytes() throws {
        let captures = try decodeWorkflow(text: captureYAML("{ bytes: sha256 }") + "      w: { bytes: length, raw: true }\n",
                                          path: "t.yaml", sources: SourceStore()).get().steps[0]
        guard case .bytes(.sha256, .decoded) = captures.capture[0].source, case .bytes(.length, .raw) = captures.capture[1].source else {
            Issue.record("unexpected sources \(captures.capture.map(\.source))")
            return
        }
        #expect(captures.readsRawBytes)
    }

    @Test(arguments: [
        ("{ bytes: sha265 }", "flows/t.yaml:4:19: error: unknown bytes view 'sha265' for a capture; did you mean 'sha256'?"),
        ("{ bytes: equals_file }", "flows/t.yaml:4:19: error: unknown bytes view 'equals_file' for a capture; valid views are 'length', 'sha256', 'md5', 'hex', 'base64'"),
        ("{ header: ETag, raw: true }", "flows/t.yaml:4:26: error: 'raw' applies only to 'bytes' captures"),
        ("{ bytes: 3 }", "flows/t.yaml:4:19: error: expected a string for 'bytes', found a number"),
    ])
    func aBadBytesCaptureIsALoadError(value: String, message: String) {
        #expect(problems(captureYAML(value)) == [message])
    }
}
