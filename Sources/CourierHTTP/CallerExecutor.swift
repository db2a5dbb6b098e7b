/// Runs the code that awaits a client's responses (``HTTPClient/callerExecutor``).
///
/// A job resumed by a finished transfer runs on the driver thread when no other
/// transfer is in flight or waiting to start: sequential requests then never change
/// threads, which is what keeps them at curl's speed (a hop to another thread per
/// response measured 0.6-0.7x curl). Whenever a transfer is in flight the job goes to
/// the global concurrent executor instead, so code awaiting a response never holds up
/// a transfer, and many workflows' code runs in parallel on the cooperative pool.
final class CallerExecutor: TaskExecutor {
    let driver: CurlDriver

    init(driver: CurlDriver) {
        self.driver = driver
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !driver.runWhenIdle(job, on: asUnownedTaskExecutor()) {
            globalConcurrentExecutor.enqueue(job)
        }
    }
}
