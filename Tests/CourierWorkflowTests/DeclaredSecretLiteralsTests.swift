import CourierDiagnostics
import CourierWorkflow
import Testing

/// `declaredSecretLiterals(in:)`: the secrets a file writes, also when it does not load,
/// so its diagnostics can be masked.
@Suite struct DeclaredSecretLiteralsTests {
    @Test func aWellFormedFile() {
        let found = declaredSecretLiterals(in: """
            vars: { user: not-a-secret }
            secrets:
              api_key: "sk-live-0001"
              creds: { id: cred-id-0002, list: [ 'list-0003', 40004 ] }
              header: "Bearer-{{ token }}-suffix"
            defaults:
              tls: { cert: c.pem, password: "tls-pw-0005" }
            steps:
              - request:
                  url: http://h/
                  tls:
                    key: k.pem
                    password: tls-pw-0006
            """)
        #expect(found == ["sk-live-0001", "cred-id-0002", "list-0003", "40004", "Bearer-", "-suffix", "tls-pw-0005", "tls-pw-0006"])
    }

    @Test func aYAMLSyntaxErrorAfterTheSecretsBlock() throws {
        let text = """
            secrets:
              token: s3cr3t-token-0001
              other: 'quoted-0002' # a comment
            steps:
              - request: { url: "http://h/
                oops: [
            """
        guard case .failure = decodeWorkflow(text: text, path: "/tmp/broken.yaml", sources: SourceStore()) else {
            Issue.record("the file should not load")
            return
        }
        #expect(Set(declaredSecretLiterals(in: text)).isSuperset(of: ["s3cr3t-token-0001", "quoted-0002"]))
    }

    @Test func aYAMLSyntaxErrorInsideTheSecretsBlock() {
        let text = """
            secrets:
              first: first-0001
              token: "unterminated-0002
              after: { a: after-0003 }
            steps: []
            """
        let found = Set(declaredSecretLiterals(in: text))
        #expect(found.isSuperset(of: ["first-0001", "unterminated-0002", "after-0003"]), "\(found)")
    }

    /// The canary suite's scenario 23: a stray `]` after a double-quoted secret with escapes,
    /// on the secret's own line, and the same in a flow mapping.
    @Test func escapedQuotedSecretsOnABrokenLine() {
        let text = #"""
            secrets:
              pw: "a \"quoted\" p@ss\nline2 \u00e4 \x41" ]
              single: 'it''s-0001' }
            defaults:
              tls: { password: "fl\"ow-0002, x" } ]
            steps: []
            """#
        let found = Set(declaredSecretLiterals(in: text))
        #expect(found.isSuperset(of: ["a \"quoted\" p@ss\nline2 ä A", "it's-0001", "fl\"ow-0002, x"]), "\(found)")
    }

    @Test func aDecodeErrorOnTheSecretsOwnLine() throws {
        let text = """
            secrets:
              9bad-name: own-line-0001
              fine: fine-0002
            steps:
              - request: { url: http://h/ }
            """
        guard case .failure(let list) = decodeWorkflow(text: text, path: "/tmp/decode.yaml", sources: SourceStore()) else {
            Issue.record("the file should not load")
            return
        }
        #expect(list.diagnostics.first?.range?.start.line == 2)
        #expect(Set(declaredSecretLiterals(in: text)).isSuperset(of: ["own-line-0001", "fine-0002"]))
    }

    @Test func anUnknownKeyInTheSameMapping() throws {
        let text = """
            secrets: { token: same-map-0001 }
            steps:
              - request:
                  url: http://h/
                  tls: { password: tls-same-0002, pasword: typo }
            """
        guard case .failure = decodeWorkflow(text: text, path: "/tmp/unknown.yaml", sources: SourceStore()) else {
            Issue.record("the file should not load")
            return
        }
        #expect(Set(declaredSecretLiterals(in: text)).isSuperset(of: ["same-map-0001", "tls-same-0002"]))
    }

    @Test func aShortLiteralSecretIsAnErrorAtItsValue() throws {
        let text = """
            secrets:
              pin: "123"
              creds: { a: long-enough, b: [ ok-value, xy ] }
              empty: ""
            steps:
              - request: { url: http://h/ }
            """
        guard case .failure(let list) = decodeWorkflow(text: text, path: "/tmp/short.yaml", sources: SourceStore()) else {
            Issue.record("the file should not load")
            return
        }
        let errors = list.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.message) == ["secret 'pin' is too short to mask safely (3 characters; at least 4)",
                                          "secret 'creds.b[1]' is too short to mask safely (2 characters; at least 4)"])
        #expect(errors.first?.range?.start.line == 2 && errors.first?.range?.start.column == 8)
    }

    /// A file that never writes `secrets` or `password` is skipped without reading, but a
    /// key spelled with escapes is still read: the quick test looks for backslashes too.
    @Test func keysSpelledWithEscapesAreStillRead() {
        #expect(declaredSecretLiterals(in: "steps:\n  - request: { url: http://h/, headers: { X-Pass: not-declared-0001 } }\n").isEmpty)
        let escaped = """
            "\\x73ecrets": { token: escaped-key-0001 }
            steps:
              - request: { url: http://h/, tls: { "pass\\u0077ord": escaped-pw-0002 } }
            """
        #expect(Set(declaredSecretLiterals(in: escaped)) == ["escaped-key-0001", "escaped-pw-0002"])
    }
}
