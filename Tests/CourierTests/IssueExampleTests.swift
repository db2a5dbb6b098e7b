import Courier
import Foundation
import Testing

/// The issue's example, as written there, against a mock: the public names are the contract.
@Suite struct IssueExampleTests {
    struct User: Codable, Sendable { let id: Int; let fullName: String }

    struct GetUser: Endpoint {
        typealias Response = User
        let id: Int
        var path: String { "/users/\(id)" }
        var query: [URLQueryItem] { [URLQueryItem(name: "expand", value: "team")] }
    }
    struct CreateUser: Endpoint {
        typealias Response = User
        let name: String
        var path: String { "/users" }
        var method: HTTPMethod { .post }
        var body: RequestBody? { .json(["full_name": name]) }
    }

    @Test func theExampleRuns() async throws {
        let mock = MockTransport()
        mock.on(.get, "/users/42", reply: .text(#"{"id":42,"full_name":"Ada"}"#, contentType: "application/json"))
        mock.on(.post, "/users", reply: .text(#"{"id":43,"full_name":"Grace"}"#, status: 201, contentType: "application/json"))

        var config = APIClient.Configuration()
        config.keyDecodingStrategy = .convertFromSnakeCase
        let client = APIClient(baseURL: try #require(URL(string: "https://api.example.com")), configuration: config, transport: mock)
        let user = try await client.send(GetUser(id: 42))
        let created = try await client.send(CreateUser(name: "Grace"))

        #expect(user.fullName == "Ada")
        #expect(created.id == 43)
        #expect(mock.requests.map(\.url) == ["https://api.example.com/users/42?expand=team", "https://api.example.com/users"])
        #expect(mock.requests.last?.bodyText == #"{"full_name":"Grace"}"#)
        #expect(mock.requests.first?.query == [URLQueryItem(name: "expand", value: "team")])
    }

    @Test func typedThrowsCatchByKind() async throws {
        let mock = MockTransport(fallback: .status(404))
        let client = APIClient(baseURL: try #require(URL(string: "https://api.example.com")), transport: mock)
        var outcome = ""
        do throws(APIError) {
            _ = try await client.send(GetUser(id: 1))
            outcome = "found"
        } catch where error.kind == .notFound {
            outcome = "not found"
        } catch {
            outcome = "other: \(error)"
        }
        #expect(outcome == "not found")
    }
}
