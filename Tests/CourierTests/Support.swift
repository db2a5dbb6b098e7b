@testable import Courier
import Foundation
import Synchronization

/// A client on `mock` whose retry waits are recorded instead of slept.
func makeClient(_ mock: MockTransport, configuration: APIClient.Configuration = APIClient.Configuration(),
                sleeps: SleepRecorder? = nil, base: String = "https://api.test") -> APIClient {
    let recorder = sleeps
    return APIClient(baseURL: URL(string: base) ?? URL(fileURLWithPath: "/"), configuration: configuration, transport: mock, owned: nil,
                     sleep: { duration in
                         if let recorder { recorder.record(duration) } else { try await Task.sleep(for: duration) }
                         try Task.checkCancellation()
                     })
}

/// Collects the waits a client asked for.
final class SleepRecorder: Sendable {
    private let waits = Mutex<[Duration]>([])
    func record(_ duration: Duration) { waits.withLock { $0.append(duration) } }
    var recorded: [Duration] { waits.withLock { $0 } }
}

/// Collects values reported from other tasks.
final class Collector<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

struct User: Codable, Sendable, Equatable {
    let id: Int
    let fullName: String
}

struct GetUser: Endpoint {
    typealias Response = User
    let id: Int
    var path: String { "/users/\(id)" }
}

struct Get<R: Decodable & Sendable>: Endpoint {
    typealias Response = R
    var path: String
    var method: HTTPMethod = .get
    var headers: HTTPHeaders = [:]
    var body: RequestBody? = nil
}
