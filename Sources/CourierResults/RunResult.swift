import CourierJSON

/// What one `courier run` did: a result per selected workflow, in path order.
///
/// Plain values only (no live handles, no secrets list): a result can be encoded,
/// sent to another process, merged with another run's and read by any reporter.
/// Masking is not a property of the result but a policy every writer applies.
package struct RunResult: Sendable, Codable, Equatable {
    package var workflows: [WorkflowResult]
    /// When the run started (wall clock).
    package var startedAt: Timestamp
    /// Wall-clock microseconds for the whole run.
    package var durationMicroseconds: Int
    /// Set when the run was interrupted (Ctrl-C, SIGTERM, SIGHUP); what ran is still reported.
    package var interruption: Interruption?
    /// Set when the run was one slice of the selected workflows (`--shard K/N`).
    package var shard: RunShard?
    /// Set by `merge-reports`: the slices of the reports merged (those that were one), in input order.
    package var mergedShards: [RunShard]?

    package init(workflows: [WorkflowResult], startedAt: Timestamp = .zero, durationMicroseconds: Int,
                 interruption: Interruption? = nil, shard: RunShard? = nil, mergedShards: [RunShard]? = nil) {
        self.workflows = workflows
        self.startedAt = startedAt
        self.durationMicroseconds = durationMicroseconds
        self.interruption = interruption
        self.shard = shard
        self.mergedShards = mergedShards
    }

    package var interrupted: Bool { interruption != nil }

    package var passed: Bool { workflows.allSatisfy(\.passed) }
}

/// Why a run stopped early: the signal that asked it to, so that reports can say
/// "interrupted by SIGTERM" and the command line can exit with 128 + its number.
package struct Interruption: Sendable, Codable, Equatable {
    /// The signal's number (2, 15, 1), or nil when the run's task was cancelled some other way.
    package var signal: Int32?
    /// `SIGINT`, `SIGTERM`, `SIGHUP`; empty without a signal.
    package var signalName: String

    package init(signal: Int32?, signalName: String) {
        self.signal = signal
        self.signalName = signalName
    }

    /// A cancelled task without a known cause (library use).
    package static let cancelled = Interruption(signal: nil, signalName: "")

    /// `interrupted by SIGTERM`, or `interrupted`: what skipped steps and reports say.
    package var description: String {
        signalName.isEmpty ? "interrupted" : "interrupted by \(signalName)"
    }
}

/// One workflow file's run.
package struct WorkflowResult: Sendable, Codable, Equatable {
    /// The path as given on the command line (or found below a directory).
    package var file: String
    package var name: String
    package var description: String?
    package var tags: [String]
    /// Every step run or skipped, in order: setup, steps, teardown.
    package var steps: [StepResult]
    /// When the workflow started (wall clock); `.zero` for one that never started.
    package var startedAt: Timestamp
    package var durationMicroseconds: Int

    package init(file: String, name: String, description: String? = nil, tags: [String] = [],
                 steps: [StepResult] = [], startedAt: Timestamp = .zero, durationMicroseconds: Int = 0) {
        self.file = file
        self.name = name
        self.description = description
        self.tags = tags
        self.steps = steps
        self.startedAt = startedAt
        self.durationMicroseconds = durationMicroseconds
    }

    package var passed: Bool { steps.allSatisfy { !$0.outcome.isProblem } }
}
