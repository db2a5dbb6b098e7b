import CourierHTTP
import Foundation

// courier-download-bench URL FILE: streams URL's body to FILE with CourierHTTP's
// `.file(path:)` destination and prints the status and the bytes written. Its peak RSS
// (measured by Benchmarks/download/bench.sh) is what the file destination is for.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: courier-download-bench URL FILE\n".utf8))
    exit(2)
}
let client = HTTPClient()
do throws(HTTPError) {
    let response = try await client.send(HTTPRequest(url: arguments[1], responseBody: .file(path: arguments[2])))
    let size = (try? FileManager.default.attributesOfItem(atPath: arguments[2])[.size] as? Int) ?? -1
    print("status \(response.status), \(size) bytes written")
} catch {
    print("error: \(error)")
    await client.shutdown()
    exit(1)
}
await client.shutdown()
