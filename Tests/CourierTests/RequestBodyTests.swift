import Courier
import Foundation
import Testing

@Suite struct RequestBodyTests {
    struct NewUser: Encodable, Sendable {
        let fullName: String
        let createdAt: Date
    }

    @Test func jsonUsesTheKeyAndDateEncodingStrategies() async throws {
        let mock = MockTransport(fallback: .status(204))
        var config = APIClient.Configuration()
        config.keyEncodingStrategy = .convertToSnakeCase
        let body = RequestBody.json(NewUser(fullName: "Ada", createdAt: Date(timeIntervalSince1970: 0)))
        _ = try await makeClient(mock, configuration: config).send(Get<EmptyResponse>(path: "/users", method: .post, body: body))
        let request = try #require(mock.requests.first)
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "application/json")
        let object = try JSONSerialization.jsonObject(with: request.body) as? [String: String]
        #expect(object == ["full_name": "Ada", "created_at": "1970-01-01T00:00:00Z"])
    }

    @Test func formIsURLEncodedInNameOrder() async throws {
        let mock = MockTransport(fallback: .status(204))
        let body = RequestBody.form(["b": "x y", "a": "1&2=3", "c": "é+*"])
        _ = try await makeClient(mock).send(Get<EmptyResponse>(path: "/token", method: .post, body: body))
        let request = try #require(mock.requests.first)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.bodyText == "a=1%262%3D3&b=x+y&c=%C3%A9%2B*")
    }

    @Test func rawIsSentAsGivenWithItsContentType() async throws {
        let mock = MockTransport(fallback: .status(204))
        let body = RequestBody.raw(Data([0, 1, 2, 255]), contentType: "application/octet-stream")
        _ = try await makeClient(mock).send(Get<EmptyResponse>(path: "/blob", method: .put, body: body))
        let request = try #require(mock.requests.first)
        #expect(request.headers["Content-Type"] == "application/octet-stream")
        #expect(request.body == Data([0, 1, 2, 255]))
    }

    @Test func anEndpointContentTypeWins() async throws {
        let mock = MockTransport(fallback: .status(204))
        let endpoint = Get<EmptyResponse>(path: "/x", method: .post, headers: ["content-type": "application/merge-patch+json"],
                                          body: .json(["a": 1]))
        _ = try await makeClient(mock).send(endpoint)
        #expect(mock.requests.first?.headers.values(for: "Content-Type") == ["application/merge-patch+json"])
    }

    @Test func multipartPartsKeepOrderAndFilesStayOnDisk() async throws {
        let mock = MockTransport(fallback: .status(204))
        var form = MultipartForm()
        form.addField(name: "title", value: "Holiday")
        form.addFile(name: "photo", path: "/tmp/beach.jpg", contentType: "image/jpeg")
        form.addData(name: "note", data: Data("hi".utf8), filename: "note.txt")
        _ = try await makeClient(mock).send(Get<EmptyResponse>(path: "/upload", method: .post, body: .multipart(form)))
        let parts = try #require(mock.requests.first?.multipartParts)
        #expect(parts.map(\.name) == ["title", "photo", "note"])
        guard case .value("Holiday") = parts[0].content else { Issue.record("field \(parts[0].content)"); return }
        guard case .file(path: "/tmp/beach.jpg") = parts[1].content else { Issue.record("file \(parts[1].content)"); return }
        #expect(parts[1].contentType == "image/jpeg")
        guard case .data(let bytes) = parts[2].content else { Issue.record("data \(parts[2].content)"); return }
        #expect(bytes == Array("hi".utf8))
        #expect(parts[2].filename == "note.txt")
        // libcurl sets Content-Type with the boundary itself.
        #expect(mock.requests.first?.headers["Content-Type"] == nil)
    }

    @Test func aSensitiveBodyIsSentButMarked() async throws {
        let mock = MockTransport(fallback: .status(204))
        let body = RequestBody.sensitive(.form(["password": "hunter2-canary"]))
        _ = try await makeClient(mock).send(Get<EmptyResponse>(path: "/login", method: .post, body: body))
        let request = try #require(mock.requests.first)
        #expect(request.bodyText == "password=hunter2-canary")
        #expect(request.isBodySensitive)
        #expect(!String(describing: request).contains("hunter2"))
    }

    @Test func aBodyThatCannotBeEncodedIsAnEncodingError() async throws {
        let mock = MockTransport(fallback: .status(204))
        let error = await #expect(throws: APIError.self) {
            try await makeClient(mock).send(Get<EmptyResponse>(path: "/x", method: .post, body: .json(Double.nan)))
        }
        #expect(error?.kind == .encoding)
        #expect(mock.requests.isEmpty)
    }
}
