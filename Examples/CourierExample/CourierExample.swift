import Courier
import Foundation

// courier-example BASE_URL: a small app's API layer on the `Courier` library, run against
// Tests/Servers/library_server.py (its `/lib/users` endpoints speak snake_case JSON):
//
//   python3 Tests/Servers/library_server.py --port-file /tmp/port &
//   swift run courier-example http://127.0.0.1:$(cat /tmp/port)/lib
//
// Its output is Examples/CourierExample/expected-output.txt. Scripts/check-outside-package.sh
// builds this same file in a package of its own that depends on `Courier` with `.package(path:)`.

/// A user as the API returns it: `{"id": 42, "full_name": "User 42", "team_name": "Platform", "created_at": "..."}`.
struct User: Codable, Sendable {
    let id: Int
    let fullName: String
    let teamName: String?
    let createdAt: Date
}

/// `GET /users/<id>?expand=team`.
struct GetUser: Endpoint {
    typealias Response = User
    let id: Int
    var path: String { "/users/\(id)" }                    // method defaults to .get
    var query: [URLQueryItem] { [URLQueryItem(name: "expand", value: "team")] }
}

/// `POST /users` with `{"full_name": ...}`.
struct CreateUser: Endpoint {
    typealias Response = User
    let name: String
    var path: String { "/users" }
    var method: HTTPMethod { .post }
    var body: RequestBody? { .json(["full_name": name]) }
}

@main
struct CourierExample {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 2, let baseURL = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: courier-example BASE_URL   (e.g. http://127.0.0.1:8080/lib)\n".utf8))
            exit(2)
        }

        var config = APIClient.Configuration()
        config.keyDecodingStrategy = .convertFromSnakeCase
        config.timeout = .seconds(10)
        config.retry = RetryPolicy(attempts: 3, delay: .milliseconds(100))
        let client = APIClient(baseURL: baseURL, configuration: config)

        var failed = false
        do {
            let user = try await client.send(GetUser(id: 42))
            print("user \(user.id): \(user.fullName), team \(user.teamName ?? "-"), since \(ISO8601DateFormatter().string(from: user.createdAt))")

            let created = try await client.send(CreateUser(name: "Ada Lovelace"))
            print("created \(created.id): \(created.fullName)")
        } catch {
            print("error: \(error)")
            failed = true
        }

        // Errors are values with a kind: a missing user is `.notFound`, with the status.
        do {
            _ = try await client.send(GetUser(id: 0))
            print("GetUser(id: 0) unexpectedly succeeded")
            failed = true
        } catch where error.kind == .notFound {
            print("GetUser(id: 0): not found (status \(error.statusCode.map(String.init) ?? "-"))")
        } catch {
            print("GetUser(id: 0): \(error)")
            failed = true
        }

        // Many requests at once, at most 4 in flight, results in input order.
        let results = await client.send(all: (1...6).map { GetUser(id: $0) }, maxConcurrency: 4)
        let names = results.map { result in
            switch result {
            case .success(let user): return user.fullName
            case .failure(let error): return "error \(error.kind)"
            }
        }
        print("batch: \(names.joined(separator: ", "))")

        await client.shutdown()
        exit(failed ? 1 : 0)
    }
}
