import Testing

/// `.inBothThreadingModes`: every test of the suite runs twice, once with the threads
/// `courier` picks (one workflow at a time runs on the thread that drives transfers) and
/// once with `COURIER_ENGINE_EXECUTORS=always` (each workflow on an engine thread of its
/// own, as under `--jobs`), so the engine's code is tested on both.
struct BothThreadingModes: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite, testCase != nil else {
            try await function()
            return
        }
        try await function()
        try await Courier.$engineExecutorsForced.withValue(true) { try await function() }
    }
}

extension Trait where Self == BothThreadingModes {
    static var inBothThreadingModes: Self { BothThreadingModes() }
}
