import Courier
import Foundation
import Testing

/// Clients that are dropped without `shutdown()`.
@Suite("Library: client lifecycle")
struct LibraryLifecycleTests {
    /// Threads of this process (`/proc/self/task`).
    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    @Test("40 clients used once and dropped without shutdown() leave no libcurl threads behind")
    func droppedClientsEndTheirThreads() async throws {
        let base = try await LibraryServers.shared.baseURL(.http)
        let before = Self.threadCount()
        for id in 1...40 {
            let client = libraryClient(base)
            let user = try await client.send(GetLibUser(id: id))
            #expect(user.id == id)
        }
        // Each client owned a driver thread; the last reference going ends it without blocking.
        // Other suites run at the same time and start threads of their own: a leak of one
        // thread per client (40) stands out from that noise; wait (bounded) for the exits.
        var after = Self.threadCount()
        for _ in 0..<200 where after - before >= 20 {
            try await Task.sleep(for: .milliseconds(50))
            after = Self.threadCount()
        }
        #expect(after - before < 20, "threads: \(before) before, \(after) after dropping 40 clients")
    }
}
