import Foundation
import Testing

/// TLS: trust, client certificates (PEM, encrypted PEM, PKCS#12), pins, insecure mode, and
/// an error a user can act on for each way it goes wrong. The curl codes and messages the
/// assertions rely on were observed with libcurl 7.88 / OpenSSL 3.0 (see HTTPError.swift).
@Suite struct TLSTests {
    private func certs() async throws -> (String) -> String {
        let directory = try await TransportFixtures.shared.certificates()
        return { directory.appendingPathComponent($0).path }
    }

    /// One step named `name` per case, all in one workflow that goes on after failures.
    private func workflow(_ steps: [(name: String, url: String, tls: String)]) -> String {
        "name: tls\ncontinue_on_failure: true\nsteps:\n" + steps.map { step in
            """
              - name: \(step.name)
                request:
                  url: \(step.url)
                  tls: \(step.tls)
            """
        }.joined(separator: "\n") + "\n"
    }

    @Test("ca, PEM cert+key, encrypted key with password, PKCS#12 with password, pinned_key: all pass; client CN reaches the server")
    func workingConfigurations() async throws {
        let c = try await certs()
        let https = try await TransportFixtures.shared.server(.https)
        let mtls = try await TransportFixtures.shared.server(.mtls)
        let pin = try String(contentsOfFile: c("server.pin"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let run = try await TransportRun.run("""
            name: tls ok
            secrets: { pass: secret }
            steps:
              - name: private CA
                request: { url: \(https.baseURL)/echo, tls: { ca: \(c("ca.pem")) } }
                expect: { json: { $.scheme: https, $.client_cn: null } }
              - name: localhost name
                request: { url: "https://localhost:\(https.port)/health", tls: { ca: \(c("ca.pem")) } }
              - name: PEM client certificate
                request: { url: \(mtls.baseURL)/echo, tls: { ca: \(c("ca.pem")), cert: \(c("client.pem")), key: \(c("client.key")) } }
                expect: { json: { $.client_cn: courier-client } }
              - name: encrypted key
                request:
                  url: \(mtls.baseURL)/echo
                  tls: { ca: \(c("ca.pem")), cert: \(c("client.pem")), key: \(c("client-encrypted.key")), password: "{{ pass }}" }
                expect: { json: { $.client_cn: courier-client } }
              - name: PKCS#12
                request: { url: \(mtls.baseURL)/echo, tls: { ca: \(c("ca.pem")), cert: \(c("client.p12")), password: "{{ pass }}" } }
                expect: { json: { $.client_cn: courier-client } }
              - name: pinned key
                request: { url: \(https.baseURL)/health, tls: { ca: \(c("ca.pem")), pinned_key: "\(pin)" } }
            """)
        #expect(run.result.status == 0, run.result.context)
        #expect(!run.result.allOutput.contains("Enter PEM pass phrase"))
        #expect(!run.result.stderr.contains("warning"), "no insecure warning without insecure\n\(run.result.context)")
    }

    @Test("verification failures: unknown CA, other CA, name mismatch, pin mismatch → <error type=tls|tls_pin_mismatch> with a hint")
    func verificationErrors() async throws {
        let c = try await certs()
        let https = try await TransportFixtures.shared.server(.https)
        let wrongName = try await TransportFixtures.shared.server(.wrongName)
        let otherCA = try await TransportFixtures.shared.server(.otherCA)
        let run = try await TransportRun.run(workflow([
            ("unknown CA", "\(https.baseURL)/health", "{}"),
            ("other CA", "\(otherCA.baseURL)/health", "{ ca: \(c("ca.pem")) }"),
            ("name mismatch", "\(wrongName.baseURL)/health", "{ ca: \(c("ca.pem")) }"),
            ("pin mismatch", "\(https.baseURL)/health", "{ ca: \(c("ca.pem")), pinned_key: 'sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' }"),
        ]))
        #expect(run.result.status == 1, run.result.context)
        for name in ["unknown CA", "other CA"] {
            let error = try #require(run.error(name), run.result.context)
            #expect(error.type == "tls")
            #expect(error.message?.contains("unable to get local issuer certificate") == true)
            #expect(error.text.contains("pass its CA with 'tls.ca'"), "\(error.text)")
        }
        let mismatch = try #require(run.error("name mismatch"))
        #expect(mismatch.type == "tls")
        #expect(mismatch.text.contains("not valid for '127.0.0.1'"), "\(mismatch.text)")
        let pin = try #require(run.error("pin mismatch"))
        #expect(pin.type == "tls_pin_mismatch")
        #expect(pin.text.contains("tls.pinned_key"), "\(pin.text)")
        #expect(run.result.stdout.contains("(curl error 90)") && run.result.stdout.contains("(curl error 60)"), run.result.context)
        // The console shows the hints too.
        #expect(run.result.stdout.contains("note: the server's certificate is not valid for '127.0.0.1'"), run.result.context)
    }

    @Test("client certificate problems: none sent (TLS 1.3 and 1.2), wrong CA, wrong/missing passwords, legacy PKCS#12, key mismatch")
    func clientCertificateErrors() async throws {
        let c = try await certs()
        let mtls = try await TransportFixtures.shared.server(.mtls)
        let mtls12 = try await TransportFixtures.shared.server(.mtls12)
        let ca = c("ca.pem")
        let run = try await TransportRun.run(workflow([
            ("no cert TLS 1.3", "\(mtls.baseURL)/health", "{ ca: \(ca) }"),
            ("no cert TLS 1.2", "\(mtls12.baseURL)/health", "{ ca: \(ca) }"),
            ("cert from another CA", "\(mtls.baseURL)/health", "{ ca: \(ca), cert: \(c("other-client.pem")), key: \(c("other-client.key")) }"),
            ("p12 wrong password", "\(mtls.baseURL)/health", "{ ca: \(ca), cert: \(c("client.p12")), password: nope }"),
            ("p12 no password", "\(mtls.baseURL)/health", "{ ca: \(ca), cert: \(c("client.p12")) }"),
            ("legacy p12", "\(mtls.baseURL)/health", "{ ca: \(ca), cert: \(c("client-legacy.p12")), password: secret }"),
            ("encrypted key no password", "\(mtls.baseURL)/health", "{ ca: \(ca), cert: \(c("client.pem")), key: \(c("client-encrypted.key")) }"),
            ("encrypted key wrong password", "\(mtls.baseURL)/health", "{ ca: \(ca), cert: \(c("client.pem")), key: \(c("client-encrypted.key")), password: nope }"),
            ("key mismatch", "\(mtls.baseURL)/health", "{ ca: \(ca), cert: \(c("client.pem")), key: \(c("other-client.key")) }"),
            // Templated, so only the run can find it missing (a literal path is a validate error).
            ("missing cert file", "\(mtls.baseURL)/health", "{ ca: \(ca), cert: \"{{ '\(c("absent-client.pem"))' }}\", key: \(c("client.key")) }"),
        ]))
        #expect(run.result.status == 1, run.result.context)
        // Without a pass phrase OpenSSL would otherwise prompt on the terminal.
        #expect(!run.result.allOutput.contains("Enter PEM pass phrase"), run.result.context)

        func check(_ name: String, type: String, code: [Int]? = [58], says: String...) throws {
            let error = try #require(run.error(name), "\(name)\n\(run.result.context)")
            #expect(error.type == type, "\(name): \(error.text)")
            if let code, let message = error.message {
                // The console's transcript gives libcurl's code after the message.
                let line = run.result.stdout.line(containing: "no response: \(message)")
                #expect(code.contains { line?.contains("(curl error \($0))") == true }, "\(name): \(line ?? "no transcript line")")
            }
            for phrase in says { #expect(error.text.contains(phrase), "\(name) should say '\(phrase)': \(error.text)") }
        }
        try check("no cert TLS 1.3", type: "tls_client_certificate", code: [55, 56], says: "does the server require a client certificate?")
        try check("no cert TLS 1.2", type: "tls_client_certificate", code: [35], says: "does the server require a client certificate?")
        try check("cert from another CA", type: "tls", code: [55, 56], says: "reject", "the client certificate", "other-client.pem")
        try check("p12 wrong password", type: "tls", says: "wrong 'tls.password'", "client.p12")
        try check("p12 no password", type: "tls", says: "protected by a password: set 'tls.password'")
        try check("legacy p12", type: "tls", says: "legacy PKCS#12", "OPENSSL_CONF")
        try check("encrypted key no password", type: "tls", says: "is encrypted: set 'tls.password'")
        try check("encrypted key wrong password", type: "tls", says: "wrong 'tls.password' for the encrypted key")
        try check("key mismatch", type: "tls", says: "other-client.key", "does not belong to the certificate")
        try check("missing cert file", type: "tls", code: nil, says: "cannot read the client certificate", "absent-client.pem")
    }

    @Test("a legacy RC2 PKCS#12 works once OpenSSL's legacy provider is enabled through OPENSSL_CONF")
    func legacyProvider() async throws {
        let c = try await certs()
        let mtls = try await TransportFixtures.shared.server(.mtls)
        let run = try await TransportRun.run("""
            name: legacy
            steps:
              - name: legacy p12
                request: { url: \(mtls.baseURL)/echo, tls: { ca: \(c("ca.pem")), cert: \(c("client-legacy.p12")), password: secret } }
                expect: { json: { $.client_cn: courier-client } }
            """, files: ["openssl.cnf": """
            openssl_conf = openssl_init
            [openssl_init]
            providers = provider_sect
            [provider_sect]
            default = default_sect
            legacy = legacy_sect
            [default_sect]
            activate = 1
            [legacy_sect]
            activate = 1
            """], environment: ["OPENSSL_CONF": "openssl.cnf"])
        #expect(run.result.status == 0, run.result.context)
    }

    @Test("--cacert, --cert and --key apply to every request; a workflow's tls: overrides them")
    func commandLineCertificates() async throws {
        let c = try await certs()
        let mtls = try await TransportFixtures.shared.server(.mtls)
        let run = try await TransportRun.run("""
            name: command line tls
            steps:
              - name: from the command line
                request: { url: \(mtls.baseURL)/echo }
                expect: { json: { $.client_cn: courier-client } }
              - name: p12 from the workflow
                request: { url: \(mtls.baseURL)/echo, tls: { cert: \(c("client.p12")), password: secret } }
                expect: { json: { $.client_cn: courier-client } }
            """, arguments: ["--cacert", c("ca.pem"), "--cert", c("client.pem"), "--key", c("client.key")])
        #expect(run.result.status == 0, run.result.context)

        let missing = try await TransportRun.run("name: x\nsteps: [{ request: { url: \(mtls.baseURL)/health } }]\n",
                                                 arguments: ["--cacert", "no-such-ca.pem"], junit: false)
        #expect(missing.result.status == 2, missing.result.context)
        #expect(missing.result.stderr.contains("no-such-ca.pem"), missing.result.context)
    }

    @Test("insecure: tls.insecure and --insecure skip verification; one warning per run on stderr, none without")
    func insecure() async throws {
        let wrongName = try await TransportFixtures.shared.server(.wrongName)
        let workspace = try Workspace()
        try workspace.write("a.yaml", """
            name: a
            defaults: { tls: { insecure: true } }
            steps:
              - { name: a1, request: { url: \(wrongName.baseURL)/health } }
              - { name: a2, request: { url: \(wrongName.baseURL)/health } }
            """)
        try workspace.write("b.yaml", """
            name: b
            steps:
              - { name: b1, request: { url: \(wrongName.baseURL)/health, tls: { insecure: true } } }
            """)
        try workspace.write("c.yaml", """
            name: c
            steps:
              - { name: c1, request: { url: \(wrongName.baseURL)/health } }
            """)
        let fromWorkflows = try await Courier.run(["run", "a.yaml", "b.yaml"], in: workspace.url)
        #expect(fromWorkflows.status == 0, fromWorkflows.context)
        let warnings = fromWorkflows.stderr.lines.filter { $0.contains("warning") }
        #expect(warnings.count == 1, fromWorkflows.context)
        #expect(warnings.first?.contains("not verified") == true && warnings.first?.contains("a.yaml, b.yaml") == true, fromWorkflows.context)

        let fromFlag = try await Courier.run(["run", "--insecure", "c.yaml"], in: workspace.url)
        #expect(fromFlag.status == 0, fromFlag.context)
        #expect(fromFlag.stderr.lines.filter { $0.contains("warning") && $0.contains("--insecure") }.count == 1, fromFlag.context)

        let verified = try await Courier.run(["run", "c.yaml"], in: workspace.url)
        #expect(verified.status == 1, verified.context)
        #expect(!verified.stderr.contains("warning"), verified.context)
    }
}
