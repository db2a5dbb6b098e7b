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
