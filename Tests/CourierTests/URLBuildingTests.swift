import Courier
import Foundation
import Testing

@Suite struct URLBuildingTests {
    struct Search: Endpoint {
        typealias Response = String
        var path: String { "/users/search me" }
        var query: [URLQueryItem] { [URLQueryItem(name: "q", value: "a&b=c d/é"), URLQueryItem(name: "flag", value: nil)] }
    }

    @Test func basePathPrefixEndpointPathAndQueryAreJoinedAndEncoded() async throws {
        let mock = MockTransport(fallback: .text("ok"))
        let client = APIClient(baseURL: try #require(URL(string: "https://api.test/v2/")), transport: mock)
        _ = try await client.send(Search())
        #expect(mock.requests.map(\.url) == ["https://api.test/v2/users/search%20me?q=a%26b%3Dc%20d%2F%C3%A9&flag"])
    }
}

@Suite struct URLBuildingEdgeTests {
    @Test(arguments: [
        ("https://api.test", "users", "https://api.test/users"),
        ("https://api.test/", "/users", "https://api.test/users"),
        ("https://api.test/api/v1", "/users/42", "https://api.test/api/v1/users/42"),
        ("https://api.test/api?x=1", "/users", "https://api.test/api/users"),
        ("https://api.test", "/files/a%20b", "https://api.test/files/a%20b"),
        ("https://api.test", "http://other.test/x", "http://other.test/x"),
    ])
    func joins(base: String, path: String, expected: String) async throws {
        let mock = MockTransport(fallback: .text("ok"))
        _ = try await makeClient(mock, base: base).send(Get<String>(path: path))
        #expect(mock.requests.first?.url == expected)
    }

    @Test func aBaseURLThatIsNotHTTPIsAnInvalidURLErrorAndNothingIsSent() async throws {
        let mock = MockTransport(fallback: .text("ok"))
        let client = APIClient(baseURL: try #require(URL(string: "ftp://files.test")), transport: mock)
        let error = await #expect(throws: APIError.self) { try await client.send(Get<String>(path: "/x")) }
        #expect(error?.kind == .invalidURL)
        #expect(mock.requests.isEmpty)
    }
}
