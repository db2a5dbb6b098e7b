import Courier
import Foundation
import Testing

@Suite struct ErrorMappingTests {
    @Test(arguments: [
        (400, APIError.Kind.clientError), (401, .unauthorized), (403, .forbidden), (404, .notFound), (409, .clientError),
        (422, .clientError), (429, .rateLimited), (500, .serverError), (502, .serverError), (503, .serverError),
        (599, .serverError), (304, .unexpectedStatus),
    ])
    func statuses(status: Int, kind: APIError.Kind) async throws {
        let mock = MockTransport(fallback: .text(#"{"error":"nope"}"#, status: status))
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).send(GetUser(id: 1)) }
        #expect(error?.kind == kind)
        #expect(error?.statusCode == status)
        #expect(error?.body == Data(#"{"error":"nope"}"#.utf8))
        #expect(error?.transportError == nil)
        #expect(error?.curlCode == nil)
    }

    @Test(arguments: [
        (HTTPError.Kind.timeout, APIError.Kind.timeout, true), (.connectionRefused, .transport, true), (.hostNotFound, .transport, true),
        (.connectionClosed, .transport, true), (.badResponse, .transport, false), (.proxy, .transport, false),
        (.tls, .tls, false), (.clientCertificateRequired, .tls, false), (.pinMismatch, .tls, false),
        (.invalidURL, .invalidURL, false), (.cancelled, .cancelled, false), (.clientShutDown, .shutDown, false),
        (.fileUnreadable, .file, false), (.fileUnwritable, .file, false), (.responseTooLarge, .transport, false),
    ])
    func transportFailures(httpKind: HTTPError.Kind, kind: APIError.Kind, retryable: Bool) async throws {
        let mock = MockTransport(fallback: .failure(httpKind, message: "it broke", curlCode: 7))
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).send(GetUser(id: 1)) }
        #expect(error?.kind == kind)
        #expect(error?.statusCode == nil)
        #expect(error?.body == nil)
        #expect(error?.curlCode == 7)
        #expect(error?.transportError?.kind == httpKind)
        #expect(error?.message == "it broke")
        #expect(error?.isRetryable == retryable)
    }

    @Test func rateLimitedCarriesRetryAfter() async throws {
        let mock = MockTransport(fallback: .status(429, headers: ["Retry-After": "7"]))
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).send(GetUser(id: 1)) }
        #expect(error?.kind == .rateLimited)
        #expect(error?.retryAfter == .seconds(7))
        #expect(error?.isRetryable == true)
    }

    @Test(arguments: [(500, false), (502, true), (503, true), (504, true), (404, false), (401, false)])
    func retryableStatuses(status: Int, retryable: Bool) async throws {
        let mock = MockTransport(fallback: .status(status))
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).send(GetUser(id: 1)) }
        #expect(error?.isRetryable == retryable)
    }

    @Test func descriptionNamesMethodURLStatusAndBody() async throws {
        let mock = MockTransport(fallback: .text("no such user", status: 404))
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).send(GetUser(id: 9)) }
        #expect(String(describing: try #require(error)) == "GET https://api.test/users/9: 404 not found; body: no such user")
    }

    @Test func kindsPrintAsShortNames() {
        #expect(APIError.Kind.rateLimited.description == "rate_limited")
        #expect(APIError.Kind.notFound.description == "not_found")
    }
}
