import Foundation
import Testing

/// `courier-example` (Examples/CourierExample), built with the tests, run against library_server.py.
@Suite("Library: the example program")
struct ExampleProgramTests {
    @Test("courier-example prints Examples/CourierExample/expected-output.txt")
    func runsAgainstTheServer() async throws {
        let binary = URL(fileURLWithPath: try Paths.courierBinary()).deletingLastPathComponent()
            .appendingPathComponent("courier-example").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw HarnessError("no courier-example next to courier at \(binary): swift build --build-tests builds it")
        }
        let server = try await LibraryServers.shared.server(.http)
        let result = try await ProcessRunner.run(binary, [server.baseURL + "/lib"], timeout: .seconds(60))
        let expected = try String(contentsOf: Paths.packageRoot.appendingPathComponent("Examples/CourierExample/expected-output.txt"),
                                  encoding: .utf8)
        #expect(result.status == 0, "\(result.allOutput)")
        #expect(result.stdout == expected)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
