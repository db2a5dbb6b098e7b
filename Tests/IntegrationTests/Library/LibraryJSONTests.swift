import Courier
import Foundation
import Testing

/// JSON both ways through the real libcurl client: snake_case keys read and written by the
/// client's strategies, ISO 8601 dates, `String` and `Data` responses.
@Suite("Library: JSON round trips")
struct LibraryJSONTests {
    static let createdAt = Date(timeIntervalSince1970: 1_767_323_045)  // 2026-01-02T03:04:05Z

    @Test("snake_case response decoded with convertFromSnakeCase, query sent")
    func decodesSnakeCase() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let user = try await client.send(GetLibUser(id: 42, expandTeam: true))
        #expect(user == LibUser(id: 42, fullName: "User 42", createdAt: Self.createdAt, teamName: "Platform"))
        let plain = try await client.send(GetLibUser(id: 7))
        #expect(plain.teamName == nil)
        await client.shutdown()
    }

    @Test("body encoded with convertToSnakeCase and ISO 8601 dates, 201 decoded")
    func encodesSnakeCase() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http)) {
            $0.keyEncodingStrategy = .convertToSnakeCase
        }
        let sent = NewUser(fullName: "Grace Hopper", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        let created = try await client.send(CreateLibUser(user: sent))
        #expect(created.receivedKeys == ["created_at", "full_name"])
        #expect(created.fullName == "Grace Hopper")
        #expect(created.id == 1000 + "Grace Hopper".count)
        #expect(created.createdAt == sent.createdAt)
        await client.shutdown()
    }

    @Test("without the strategies the same JSON is a decoding error, not a silent default")
    func defaultKeysDoNotMatch() async throws {
        var config = APIClient.Configuration()
        config.timeout = .seconds(60)
        let client = APIClient(baseURL: try await LibraryServers.shared.baseURL(.http), configuration: config)
        do {
            let user = try await client.send(GetLibUser(id: 1))
            Issue.record("decoded \(user) without convertFromSnakeCase")
        } catch {
            #expect(error.kind == .decoding)
            #expect(error.codingPath?.contains("fullName") == true, "\(error)")
        }
        await client.shutdown()
    }

    @Test("Response == String is the body as text, Data the bytes")
    func stringAndData() async throws {
        struct Text: Endpoint {
            typealias Response = String
            var path: String { "/lib/users/3" }
        }
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let text = try await client.send(Text())
        #expect(text.contains(#""full_name": "User 3""#))
        let bytes = try await client.send(GetBytes(count: 1000))
        #expect(bytes.count == 1000)
        #expect(bytes.enumerated().allSatisfy { Int($0.element) == $0.offset % 256 })
        await client.shutdown()
    }
}
