import Courier
import Foundation
import Testing

@Suite struct ResponseTests {
    @Test func stringIsTheBodyDecodedWithItsCharset() async throws {
        let mock = MockTransport(fallback: .status(200, headers: ["Content-Type": "text/plain; charset=iso-8859-1"], body: Data([0x63, 0x61, 0x66, 0xE9])))
        let text = try await makeClient(mock).send(Get<String>(path: "/text"))
        #expect(text == "café")
        #expect(mock.requests.first?.headers["Accept"] == nil)
    }

    @Test func dataIsTheBytesAsReceived() async throws {
        let mock = MockTransport(fallback: .status(200, body: Data([0xFF, 0x00, 0x10])))
        let data = try await makeClient(mock).send(Get<Data>(path: "/bytes"))
        #expect(data == Data([0xFF, 0x00, 0x10]))
    }

    @Test func emptyResponseIgnoresTheBody() async throws {
        let mock = MockTransport(fallback: .text("not json at all"))
        let value = try await makeClient(mock).send(Get<EmptyResponse>(path: "/x", method: .delete))
        #expect(value == EmptyResponse())
    }

    @Test func jsonIsDecodedWithTheKeyDecodingStrategyAndAcceptIsSet() async throws {
        let mock = MockTransport()
        mock.on(.get, "/users/42", reply: .text(#"{"id":42,"full_name":"Ada Lovelace"}"#, contentType: "application/json"))
        var config = APIClient.Configuration()
        config.keyDecodingStrategy = .convertFromSnakeCase
        let user = try await makeClient(mock, configuration: config).send(GetUser(id: 42))
        #expect(user == User(id: 42, fullName: "Ada Lovelace"))
        #expect(mock.requests.first?.headers["Accept"] == "application/json")
    }

    @Test func datesDecodeAsISO8601ByDefault() async throws {
        struct Event: Decodable, Sendable { let at: Date }
        let mock = MockTransport(fallback: .text(#"{"at":"2024-02-29T12:00:00Z"}"#))
        let event = try await makeClient(mock).send(Get<Event>(path: "/e"))
        #expect(event.at == Date(timeIntervalSince1970: 1_709_208_000))
    }

    @Test func aDecodingErrorNamesTheCodingPathAndShowsAnExcerpt() async throws {
        struct Team: Decodable, Sendable { let members: [User] }
        let body = #"{"members":[{"id":1,"fullName":"A"},{"id":2,"fullName":"B"},{"id":"three","fullName":"C"}]}"#
        let mock = MockTransport(fallback: .text(body, contentType: "application/json"))
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).send(Get<Team>(path: "/team")) }
        #expect(error?.kind == .decoding)
        #expect(error?.codingPath == "members[2].id")
        #expect(error?.statusCode == 200)
        #expect(error?.body == Data(body.utf8))
        let text = String(describing: try #require(error))
        #expect(text.contains("members[2].id"))
        #expect(text.contains(#"{"members":[{"id":1"#))
    }

    @Test func aMissingKeyIsPartOfThePath() async throws {
        struct Wrapper: Decodable, Sendable { let user: User }
        let mock = MockTransport(fallback: .text(#"{"user":{"id":1}}"#))
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).send(Get<Wrapper>(path: "/w")) }
        #expect(error?.codingPath == "user.fullName")
    }

    @Test func aLongBodyIsCutInTheDescription() async throws {
        let body = "[" + String(repeating: "1,", count: 500) + "\"x\"]"
        let mock = MockTransport(fallback: .text(body))
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).send(Get<[Int]>(path: "/n")) }
        let excerpt = try #require(error?.bodyExcerpt())
        #expect(excerpt.hasSuffix("… (\(body.utf8.count) bytes)"))
        #expect(excerpt.count < 240)
        #expect(error?.codingPath == "[500]")
    }
}
