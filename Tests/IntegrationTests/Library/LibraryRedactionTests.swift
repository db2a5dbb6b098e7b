import Courier
import Foundation
import Testing

/// What an error says about a request that carried secrets.
@Suite("Library: redaction in errors")
struct LibraryRedactionTests {
    /// `/echo` answering 403 with the request's headers in its body.
    struct EchoForbidden: Endpoint {
        typealias Response = EmptyResponse
        let token: String
        var path: String { "/echo" }
        var headers: HTTPHeaders { ["Authorization": "Bearer \(token)", "Cookie": "session=\(token)-cookie", "X-Echo-Status": "403"] }
    }

    @Test("the token and cookie sent, echoed back in the error body, never appear in the description")
    func tokenEchoedInBody() async throws {
        let canary = "canary-\(UUID().uuidString.prefix(12))"
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        do {
            _ = try await client.send(EchoForbidden(token: canary))
            Issue.record("expected 403")
        } catch {
            #expect(error.kind == .forbidden)
            // The body really holds the token (so the check below is not vacuous) …
            #expect(String(decoding: error.body ?? Data(), as: UTF8.self).contains(canary))
            // … but no description of the error shows it.
            #expect(!String(describing: error).contains(canary), "\(error)")
            #expect(!String(reflecting: error).contains(canary))
            #expect(error.bodyExcerpt(limit: 10_000)?.contains(canary) == false)
        }
        await client.shutdown()
    }

    /// `/echo` answering 400 with the request's body in its own.
    struct EchoSensitiveForm: Endpoint {
        typealias Response = EmptyResponse
        let password: String
        var path: String { "/echo" }
        var method: HTTPMethod { .post }
        var headers: HTTPHeaders { ["X-Echo-Status": "400"] }
        var body: RequestBody? { .sensitive(.form(["username": "demo", "password": password])) }
    }

    @Test("a body marked sensitive, echoed back in the error body, never appears in the description")
    func sensitiveBodyEchoed() async throws {
        let canary = "canary-\(UUID().uuidString.prefix(12))"
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        do {
            _ = try await client.send(EchoSensitiveForm(password: canary))
            Issue.record("expected 400")
        } catch {
            #expect(error.kind == .clientError)
            #expect(String(decoding: error.body ?? Data(), as: UTF8.self).contains(canary))
            #expect(!String(describing: error).contains(canary), "\(error)")
            #expect(!String(reflecting: error).contains(canary))
        }
        await client.shutdown()
    }
}
