/// The counts and the one-line reasons every output shows — console, JUnit, JSON and HTML —
/// computed here once, so the reports of one run agree. The records are read in place.

/// Steps per outcome (each `for_each` item counted).
package struct StepCounts: Sendable, Equatable {
    package var passed = 0
    package var failed = 0
    package var errored = 0
    package var skipped = 0

    package var total: Int { passed + failed + errored + skipped }

    package init(_ steps: [StepResult]) {
        for index in steps.indices {
            switch steps[index].outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .errored: errored += 1
            case .skipped: skipped += 1
            }
        }
    }

    package init(passed: Int = 0, failed: Int = 0, errored: Int = 0, skipped: Int = 0) {
        (self.passed, self.failed, self.errored, self.skipped) = (passed, failed, errored, skipped)
    }

    package static func + (lhs: StepCounts, rhs: StepCounts) -> StepCounts {
        StepCounts(passed: lhs.passed + rhs.passed, failed: lhs.failed + rhs.failed,
                   errored: lhs.errored + rhs.errored, skipped: lhs.skipped + rhs.skipped)
    }
}

/// Workflows by how they ended.
package struct WorkflowCounts: Sendable, Equatable {
    package var passed = 0
    package var failed = 0
    /// Never started (`--fail-fast` stopped the run first): neither passed nor failed.
    package var notRun = 0
    /// Running when `--fail-fast` stopped the run, a step cancelled: neither passed nor failed.
    package var cancelled = 0

    package var total: Int { passed + failed + notRun + cancelled }
}

extension WorkflowResult {
    package var stepCounts: StepCounts { StepCounts(steps) }

    /// `--fail-fast` stopped the run while this workflow ran: a step of it was cancelled.
    package var wasCancelledByFailFast: Bool {
        steps.contains { $0.outcome.skipReason == SkipReason.failFastCancelled }
    }

    /// `--fail-fast` stopped the run before this workflow started.
    package var wasNotRun: Bool {
        !steps.isEmpty && steps.allSatisfy { $0.outcome.skipReason == SkipReason.failFastNotRun }
    }

    /// Requests put on the wire: one per hop of every attempt that got a response or a
    /// transfer error (a transfer that failed may have sent nothing; it is still a try).
    /// An attempt with neither, a request only rendered (`--dry-run`), was never sent.
    package var requestsSent: Int {
        var requests = 0
        for step in steps.indices {
            for attempt in steps[step].attempts.indices {
                let record = steps[step].attempts[attempt]
                if record.response != nil || record.error != nil { requests += record.redirects.count + 1 }
            }
        }
        return requests
    }
}

extension RunResult {
    /// Steps per outcome, over every workflow.
    package var stepCounts: StepCounts {
        workflows.indices.reduce(StepCounts()) { $0 + workflows[$1].stepCounts }
    }

    package var workflowCounts: WorkflowCounts {
        var counts = WorkflowCounts()
        for index in workflows.indices {
            let workflow = workflows[index]
            if !workflow.passed {
                counts.failed += 1
            } else if workflow.wasNotRun {
                counts.notRun += 1
            } else if workflow.wasCancelledByFailFast {
                counts.cancelled += 1
            } else {
                counts.passed += 1
            }
        }
        return counts
    }

    /// Steps `--fail-fast` cancelled in flight or before they started, in running workflows
    /// (`cancelled: --fail-fast`), among the skipped ones.
    package var stepsCancelledByFailFast: Int {
        workflows.reduce(0) { $0 + $1.steps.count { $0.outcome.skipReason == SkipReason.failFastCancelled } }
    }

    /// Requests put on the wire in the whole run (see ``WorkflowResult/requestsSent``).
    package var requestsSent: Int {
        workflows.indices.reduce(0) { $0 + workflows[$1].requestsSent }
    }
}

extension StepOutcome {
    /// Why a failed or errored step is one, in one line, as every report's recap and JUnit's
    /// `message` say it: the first failure (`… (and 2 more)`), or the error's message. Nil
    /// for a step that passed or was skipped.
    package var reason: String? {
        switch self {
        case .failed(let failures):
            let first = Self.firstLine(failures.first?.message ?? "expectation failed")
            return failures.count > 1 ? "\(first) (and \(failures.count - 1) more)" : first
        case .errored(let error):
            return Self.firstLine(error.message)
        case .passed, .skipped:
            return nil
        }
    }

    private static func firstLine(_ text: String) -> String {
        String(text.prefix { !$0.isNewline })
    }
}
