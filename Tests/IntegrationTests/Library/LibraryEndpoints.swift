import Courier
import Foundation

// The endpoints of library_server.py's `/lib/...` routes and of testserver.py's, as an app
// would declare them.

/// `{"id", "full_name", "created_at", "team_name"?, "team"?}` read with `.convertFromSnakeCase`.
struct LibUser: Codable, Sendable, Equatable {
    struct Team: Codable, Sendable, Equatable {
        let name: String
        let memberCount: Int
    }
    let id: Int
    let fullName: String
    let createdAt: Date
    var teamName: String?
    var team: Team?
}

struct GetLibUser: Endpoint {
    typealias Response = LibUser
    let id: Int
    var expandTeam = false
    var path: String { "/lib/users/\(id)" }
    var query: [URLQueryItem] { expandTeam ? [URLQueryItem(name: "expand", value: "team")] : [] }
}

/// What `POST /lib/users` answers: the user plus the body's keys as the server received them.
struct CreatedUser: Decodable, Sendable {
    let id: Int
    let fullName: String
    let createdAt: Date
    let receivedKeys: [String]
}

/// A body written with the client's encoder: `fullName`/`createdAt` become `full_name`/`created_at`
/// under `.convertToSnakeCase`, the date ISO 8601.
struct NewUser: Encodable, Sendable {
    let fullName: String
    let createdAt: Date
}

struct CreateLibUser: Endpoint {
    typealias Response = CreatedUser
    let user: NewUser
    var path: String { "/lib/users" }
    var method: HTTPMethod { .post }
    var body: RequestBody? { .json(user) }
}

/// `GET /lib/bad-user`: `team.member_count` is a string.
struct GetBadUser: Endpoint {
    typealias Response = LibUser
    var path: String { "/lib/bad-user" }
}

/// testserver.py's `/status/<code>` (`?retry_after=`).
struct GetStatus: Endpoint {
    typealias Response = EmptyResponse
    let code: Int
    var retryAfter: String?
    var method: HTTPMethod = .get
    var path: String { "/status/\(code)" }
    var query: [URLQueryItem] { retryAfter.map { [URLQueryItem(name: "retry_after", value: $0)] } ?? [] }
}

/// testserver.py's `/delay?ms=N`.
struct GetDelay: Endpoint {
    typealias Response = EmptyResponse
    let milliseconds: Int
    var path: String { "/delay" }
    var query: [URLQueryItem] { [URLQueryItem(name: "ms", value: String(milliseconds))] }
}

/// testserver.py's `/flaky?key=K&fail=N&status=S`: `{key, attempt, ok}`.
struct Flaky: Endpoint {
    struct Response: Decodable, Sendable {
        let key: String
        let attempt: Int
        let ok: Bool
    }
    let key: String
    let fail: Int
    var status = 503
    var retryAfter: String?
    var method: HTTPMethod = .get
    var path: String { "/flaky" }
    var query: [URLQueryItem] {
        [URLQueryItem(name: "key", value: key), URLQueryItem(name: "fail", value: String(fail)),
         URLQueryItem(name: "status", value: String(status))]
            + (retryAfter.map { [URLQueryItem(name: "retry_after", value: $0)] } ?? [])
    }
}

/// testserver.py's `/echo`: what the server received (the parts the tests read).
struct Echo: Endpoint {
    struct Response: Decodable, Sendable {
        let method: String
        let path: String
        let headers: [[String]]
        let clientCn: String?
        let scheme: String
    }
    var path: String { "/echo" }
}

/// `/lib/gather?key=K&n=N`: held until N requests with K's token are in flight.
struct Gather: Endpoint {
    struct Response: Decodable, Sendable {
        let ok: Bool
        let peak: Int
    }
    let key: String
    let n: Int
    var path: String { "/lib/gather" }
    var query: [URLQueryItem] {
        [URLQueryItem(name: "key", value: key), URLQueryItem(name: "n", value: String(n)),
         URLQueryItem(name: "wait_ms", value: "20000")]
    }
}

/// `POST /lib/token?key=K`: a new token for K (counted by the server).
struct FetchToken: Endpoint {
    struct Response: Decodable, Sendable {
        let accessToken: String
    }
    let key: String
    var path: String { "/lib/token" }
    var method: HTTPMethod { .post }
    var query: [URLQueryItem] { [URLQueryItem(name: "key", value: key)] }
}

/// `/lib/stats?key=K`.
struct GatherStats: Endpoint {
    struct Response: Decodable, Sendable {
        let refreshes: Int
        let unauthorized: Int
        let ok: Int
        let peak: Int
    }
    let key: String
    var path: String { "/lib/stats" }
    var query: [URLQueryItem] { [URLQueryItem(name: "key", value: key)] }
}

/// testserver.py's `POST /multipart`: `{parts: [{name, filename, size, sha256, value?}], count, bytes}`.
struct UploadForm: Endpoint {
    struct Part: Decodable, Sendable {
        let name: String
        let filename: String?
        let size: Int
        let sha256: String
        let value: String?
    }
    struct Response: Decodable, Sendable {
        let parts: [Part]
        let count: Int
    }
    let form: MultipartForm
    var path: String { "/multipart" }
    var method: HTTPMethod { .post }
    var body: RequestBody? { .multipart(form) }
}

/// testserver.py's `GET /bytes?n=N`: byte i is i mod 256.
struct GetBytes: Endpoint {
    typealias Response = Data
    let count: Int
    var path: String { "/bytes" }
    var query: [URLQueryItem] { [URLQueryItem(name: "n", value: String(count))] }
}

/// A client for tests: short timeouts that still leave a busy machine room, snake_case JSON.
func libraryClient(_ baseURL: URL, _ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
    var config = APIClient.Configuration()
    config.timeout = .seconds(60)
    config.keyDecodingStrategy = .convertFromSnakeCase
    configure(&config)
    return APIClient(baseURL: baseURL, configuration: config)
}

/// testserver.py's `/delay?ms=N&group=G`, counted per group (`/concurrency?group=G`).
struct GroupDelay: Endpoint {
    typealias Response = EmptyResponse
    let group: String
    let milliseconds: Int
    var path: String { "/delay" }
    var query: [URLQueryItem] {
        [URLQueryItem(name: "ms", value: String(milliseconds)), URLQueryItem(name: "group", value: group)]
    }
}

/// testserver.py's `/concurrency?group=G`: `{in_flight, peak, total}`.
struct GroupConcurrency: Endpoint {
    struct Response: Decodable, Sendable {
        let peak: Int
        let total: Int
    }
    let group: String
    var path: String { "/concurrency" }
    var query: [URLQueryItem] { [URLQueryItem(name: "group", value: group)] }
}
