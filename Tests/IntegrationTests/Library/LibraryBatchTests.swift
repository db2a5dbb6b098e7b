import Courier
import Foundation
import Testing

/// `send(all:maxConcurrency:)` against a server that counts what is in flight.
@Suite("Library: batches")
struct LibraryBatchTests {
    @Test("results come back in input order, failures in their place")
    func inputOrder() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let ids = [9, 3, 0, 27, 1, 14, 0, 5]
        let results = await client.send(all: ids.map { GetLibUser(id: $0) }, maxConcurrency: 3)
        #expect(results.count == ids.count)
        for (id, result) in zip(ids, results) {
            switch result {
            case .success(let user): #expect(user.id == id && id > 0)
            case .failure(let error): #expect(id == 0 && error.kind == .notFound, "\(id): \(error)")
            }
        }
        await client.shutdown()
    }

    @Test("never more than maxConcurrency requests reach the server at once")
    func concurrencyLimit() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let group = uniqueKey("batch")
        let results = await client.send(all: (0..<12).map { _ in GroupDelay(group: group, milliseconds: 200) }, maxConcurrency: 4)
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        let counts = try await client.send(GroupConcurrency(group: group))
        #expect(counts.total == 12)
        #expect(counts.peak <= 4, "\(counts.peak) in flight at once")
        #expect(counts.peak >= 2, "the batch ran one at a time (peak \(counts.peak))")
        await client.shutdown()
    }
}
