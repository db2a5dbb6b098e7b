import Synchronization

/// What a run still holds when the process exits: its workflows and results. Freeing
/// them one object at a time (tens of thousands for a 2,000-step run, a few milliseconds)
/// only to exit right after is work the kernel does at once when the process ends.
enum KeptUntilExit {
    private static let values = Mutex<[any Sendable]>([])

    static func keep(_ value: any Sendable) {
        values.withLock { $0.append(value) }
    }
}
