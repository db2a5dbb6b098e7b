import Courier
import Foundation
import Testing

@Suite struct BatchTests {
    @Test func resultsComeInInputOrderWithFailuresInPlace() async throws {
        // Later requests answer sooner, so completion order is the reverse of input order.
        let mock = MockTransport { request in
            let id = Int(request.path.split(separator: "/").last ?? "") ?? 0
            if id == 3 { return .status(404) }
            return (try? .json(User(id: id, fullName: "u\(id)"), delay: .milliseconds(5 * (10 - id)))) ?? .status(500)
        }
        let results = await makeClient(mock).send(all: (0..<10).map { GetUser(id: $0) }, maxConcurrency: 10)
        #expect(results.count == 10)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let user): #expect(user.id == index)
            case .failure(let error): #expect(index == 3 && error.kind == .notFound)
            }
        }
    }

    @Test(arguments: [1, 3, 8])
    func maxConcurrencyIsRespected(limit: Int) async throws {
        let mock = MockTransport(fallback: .text("ok", delay: .milliseconds(40)))
        let results = await makeClient(mock).send(all: (0..<24).map { Get<String>(path: "/\($0)") }, maxConcurrency: limit)
        #expect(results.count == 24)
        #expect(mock.requests.count == 24)
        #expect(mock.maxConcurrentRequests == limit)
    }

    @Test func anEmptyBatchSendsNothing() async {
        let mock = MockTransport()
        let results = await makeClient(mock).send(all: [GetUser](), maxConcurrency: 4)
        #expect(results.isEmpty)
        #expect(mock.requests.isEmpty)
    }
}
