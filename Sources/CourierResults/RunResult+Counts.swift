/// Totals for the console's summary line, counted in this module: from here the records
/// are read in place, where a loop in the reporter copied every attempt out of its array
/// to look at it.
extension RunResult {
    /// Steps per outcome.
    package var outcomeCounts: (passed: Int, failed: Int, errored: Int, skipped: Int) {
        var counts = (passed: 0, failed: 0, errored: 0, skipped: 0)
        for workflow in workflows {
            for step in workflow.steps {
                switch step.outcome {
                case .passed: counts.passed += 1
                case .failed: counts.failed += 1
                case .errored: counts.errored += 1
                case .skipped: counts.skipped += 1
                }
            }
        }
        return counts
    }

    /// Requests put on the wire: one per hop of every attempt that got a response or a
    /// transfer error (a transfer that failed may have sent nothing; it is still a try).
    /// An attempt with neither, a request only rendered (`--dry-run`), was never sent.
    package var requestsSent: Int {
        var requests = 0
        for workflow in workflows {
            for step in workflow.steps {
                for attempt in step.attempts where attempt.response != nil || attempt.error != nil {
                    requests += attempt.redirects.count + 1
                }
            }
        }
        return requests
    }
}
