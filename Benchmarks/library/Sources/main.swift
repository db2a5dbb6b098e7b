import Courier
import Foundation
import Synchronization

// The library benchmark's runner (Benchmarks/library/bench.sh):
//
//   courier-library-bench get BASE_URL N        N sequential GETs of BASE_URL/hello.json?i=<i>,
//                                               each decoded into `Hello`
//   courier-library-bench download URL FILE     APIClient.download(_:to:progress:) of URL to FILE
//
// Prints one line; exits 1 on the first error.

/// Benchmarks/http's document: `{"id":1,"name":"courier","tags":["bench","http"],"price":12.5,"ok":true}`.
struct Hello: Decodable, Sendable {
    let id: Int
    let name: String
    let tags: [String]
    let price: Double
    let ok: Bool
}

struct GetHello: Endpoint {
    typealias Response = Hello
    let index: Int
    var path: String { "/hello.json" }
    var query: [URLQueryItem] { [URLQueryItem(name: "i", value: String(index))] }
}

/// The whole URL as the path (an absolute URL replaces the base URL).
struct GetFile: Endpoint {
    typealias Response = EmptyResponse
    let url: String
    var path: String { url }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("courier-library-bench: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let base = URL(string: arguments[2]) else {
    fail("usage: courier-library-bench get BASE_URL N | download URL FILE")
}
let client = APIClient(baseURL: base, configuration: APIClient.Configuration())
switch arguments[1] {
case "get":
    guard let count = Int(arguments[3]), count > 0 else { fail("N must be a positive integer") }
    var ids = 0
    for i in 1...count {
        do {
            ids += try await client.send(GetHello(index: i)).id
        } catch {
            fail("request \(i): \(error)")
        }
    }
    print("\(count) GETs decoded (sum of ids \(ids))")
case "download":
    let progressSteps = ProgressCounter()
    do {
        try await client.download(GetFile(url: arguments[2]), to: URL(fileURLWithPath: arguments[3])) { fraction in
            progressSteps.record(fraction)
        }
    } catch {
        fail("download: \(error)")
    }
    print("downloaded, \(progressSteps.count) progress calls, last \(progressSteps.last)")
default:
    fail("unknown mode '\(arguments[1])' (get or download)")
}
await client.shutdown()

/// Progress calls counted from the transfer's thread.
final class ProgressCounter: Sendable {
    private let state = Mutex<(calls: Int, last: Double)>((0, 0))
    func record(_ fraction: Double) { state.withLock { $0 = ($0.calls + 1, fraction) } }
    var count: Int { state.withLock { $0.calls } }
    var last: Double { state.withLock { $0.last } }
}
