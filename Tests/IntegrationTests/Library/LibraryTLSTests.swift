import Courier
import Foundation
import Testing

/// Mutual TLS with a PKCS#12 bundle, against a server that requires a client certificate.
@Suite("Library: client certificates")
struct LibraryTLSTests {
    @Test("a PKCS#12 client certificate is presented and the server sees its CN")
    func pkcs12() async throws {
        let ca = try await LibraryServers.shared.certificate("ca.pem")
        let p12 = try await LibraryServers.shared.certificate("client.p12")
        let client = libraryClient(try await LibraryServers.shared.baseURL(.mtls)) {
            $0.tls.caCertificate = ca
            $0.tls.clientCertificate = .pkcs12(path: p12, password: "secret")
        }
        let echo = try await client.send(Echo())
        #expect(echo.clientCn == "courier-client")
        #expect(echo.scheme == "https")
        await client.shutdown()
    }

    @Test("a PEM certificate and key work the same way")
    func pem() async throws {
        let ca = try await LibraryServers.shared.certificate("ca.pem")
        let cert = try await LibraryServers.shared.certificate("client.pem")
        let key = try await LibraryServers.shared.certificate("client.key")
        let client = libraryClient(try await LibraryServers.shared.baseURL(.mtls)) {
            $0.tls.caCertificate = ca
            $0.tls.clientCertificate = .pem(certificate: cert, key: key)
        }
        let echo = try await client.send(Echo())
        #expect(echo.clientCn == "courier-client")
        await client.shutdown()
    }

    @Test("without a client certificate the handshake fails: a TLS error")
    func missingClientCertificate() async throws {
        let ca = try await LibraryServers.shared.certificate("ca.pem")
        let client = libraryClient(try await LibraryServers.shared.baseURL(.mtls)) { $0.tls.caCertificate = ca }
        do {
            let echo = try await client.send(Echo())
            Issue.record("the server accepted a client without a certificate: \(echo)")
        } catch {
            #expect(error.kind == .tls, "\(error)")
            #expect(error.statusCode == nil)
        }
        await client.shutdown()
    }

    @Test("a wrong PKCS#12 password is a TLS error")
    func wrongPassword() async throws {
        let ca = try await LibraryServers.shared.certificate("ca.pem")
        let p12 = try await LibraryServers.shared.certificate("client.p12")
        let client = libraryClient(try await LibraryServers.shared.baseURL(.mtls)) {
            $0.tls.caCertificate = ca
            $0.tls.clientCertificate = .pkcs12(path: p12, password: "canary-pw-5150")
        }
        do {
            let echo = try await client.send(Echo())
            Issue.record("succeeded with a wrong password: \(echo)")
        } catch {
            #expect(error.kind == .tls, "\(error)")
            #expect(!error.description.contains("canary-pw-5150"), "the password leaks: \(error)")
        }
        await client.shutdown()
    }

    @Test("the server's public key pinned: the right pin connects, another fails with a TLS error")
    func pinnedKey() async throws {
        let ca = try await LibraryServers.shared.certificate("ca.pem")
        let pinFile = try await LibraryServers.shared.certificate("server.pin")
        let pin = try String(contentsOfFile: pinFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(pin.hasPrefix("sha256//"))
        let base = try await LibraryServers.shared.baseURL(.https)
        let pinned = libraryClient(base) {
            $0.tls.caCertificate = ca
            $0.tls.pinnedPublicKey = pin
        }
        #expect(try await pinned.send(GetLibUser(id: 2)).id == 2)
        await pinned.shutdown()

        let wrong = libraryClient(base) {
            $0.tls.caCertificate = ca
            $0.tls.pinnedPublicKey = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        }
        do {
            let user = try await wrong.send(GetLibUser(id: 2))
            Issue.record("connected despite a wrong pin: \(user)")
        } catch {
            #expect(error.kind == .tls, "\(error)")
            #expect(error.curlCode == 90, "\(error)")
        }
        await wrong.shutdown()
    }
}
