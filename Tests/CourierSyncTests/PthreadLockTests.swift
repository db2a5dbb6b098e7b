import CourierSync
import Dispatch
import Testing

/// The lock the driver's inbox and the body streams hand values over with.
@Suite struct PthreadLockTests {
    @Test func concurrentUpdatesAreNeverLost() {
        let lock = PthreadLock([Int]())
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<1_000 { lock.withLock { $0.append(worker * 1_000 + i) } }
        }
        let values = lock.withLock { $0 }
        #expect(values.count == 8_000)
        #expect(Set(values).count == 8_000)
    }

    @Test func aThrowingBodyLeavesTheLockFree() throws {
        struct Failure: Error {}
        let lock = PthreadLock(0)
        #expect(throws: Failure.self) { try lock.withLock { _ in throw Failure() } }
        // Taken again: the throw unlocked it.
        #expect(lock.withLock { $0 += 1; return $0 } == 1)
    }
}
