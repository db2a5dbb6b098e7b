import CourierDiagnostics
import CourierHTTP
import CourierJSON

/// What one `courier run` did: a result per selected workflow, in order.
package struct RunResult: Sendable {
    package var workflows: [WorkflowResult]
    /// Wall-clock microseconds for the whole run.
    package var durationMicroseconds: Int
    /// Set when the run was interrupted (Ctrl-C, SIGTERM, SIGHUP); what ran is still reported.
    package var interruption: Interruption?

    package init(workflows: [WorkflowResult], durationMicroseconds: Int, interruption: Interruption? = nil) {
        self.workflows = workflows
        self.durationMicroseconds = durationMicroseconds
        self.interruption = interruption
    }

    package var interrupted: Bool { interruption != nil }

    package var passed: Bool { workflows.allSatisfy(\.passed) }
}

/// Why a run stopped early: the signal that asked it to, so that reports can say
/// "interrupted by SIGTERM" and the command line can exit with 128 + its number.
package struct Interruption: Sendable, Equatable {
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
package struct WorkflowResult: Sendable {
    /// The path as given on the command line (or found below a directory).
    package var file: String
    package var name: String
    package var description: String?
    package var tags: [String]
    /// Every step run or skipped, in order: setup, steps, teardown.
    package var steps: [StepResult]
    package var durationMicroseconds: Int
    /// The secret values this workflow registered in the run's `SecretRegistry`
    /// (`RunSettings.secrets`), for tests and tools. Reporters do not read them:
    /// every output is masked with the registry's policy at the door.
    package var secrets: [String]

    package init(file: String, name: String, description: String? = nil, tags: [String] = [],
                 steps: [StepResult] = [], durationMicroseconds: Int = 0, secrets: [String] = []) {
        self.file = file
        self.name = name
        self.description = description
        self.tags = tags
        self.steps = steps
        self.durationMicroseconds = durationMicroseconds
        self.secrets = secrets
    }

    package var passed: Bool { steps.allSatisfy { !$0.outcome.isProblem } }

    /// The JUnit `classname`: the file path without its extension.
    package var className: String {
        for ext in [".yaml", ".yml"] where file.hasSuffix(ext) {
            return String(file.dropLast(ext.count))
        }
        return file
    }
}

/// Which list of the workflow a step came from.
package enum StepPhase: String, Sendable {
    case setup, steps, teardown, auth
}

/// One run of a step (a `for_each` step gives one result per item).
package struct StepResult: Sendable {
    package var name: String
    package var phase: StepPhase
    /// Where the step starts in its file (or in the included file).
    package var location: SourceRange?
    /// 1-based item number of a `for_each` run.
    package var iteration: Int?
    package var outcome: StepOutcome
    /// Every attempt, first to last; only the last decides the outcome.
    package var attempts: [Attempt]
    /// Variables this step captured, in declaration order.
    package var captures: [CapturedValue]
    package var durationMicroseconds: Int

    package init(name: String, phase: StepPhase, location: SourceRange? = nil, iteration: Int? = nil,
                 outcome: StepOutcome, attempts: [Attempt] = [], captures: [CapturedValue] = [],
                 durationMicroseconds: Int = 0) {
        self.name = name
        self.phase = phase
        self.location = location
        self.iteration = iteration
        self.outcome = outcome
        self.attempts = attempts
        self.captures = captures
        self.durationMicroseconds = durationMicroseconds
    }

    /// The name reports show: `for_each` runs are numbered.
    package var displayName: String {
        iteration.map { "\(name) [\($0)]" } ?? name
    }
}

package enum StepOutcome: Sendable {
    case passed
    /// Expectations or captures did not hold (JUnit `<failure>`).
    case failed([AssertionFailure])
    /// The step could not be carried out: transport, TLS, template, file errors (JUnit `<error>`).
    case errored(StepError)
    case skipped(reason: String)

    package var isProblem: Bool {
        switch self {
        case .failed, .errored: true
        case .passed, .skipped: false
        }
    }
}

/// One expectation or capture that did not hold.
package struct AssertionFailure: Error, Sendable {
    /// Where the expectation or capture is written.
    package var location: SourceRange?
    /// What was checked: `status`, `header Content-Type`, `json $.id`, `capture token`.
    package var subject: String
    package var message: String
    package var expected: String?
    package var actual: String?

    package init(location: SourceRange?, subject: String, message: String, expected: String? = nil, actual: String? = nil) {
        self.location = location
        self.subject = subject
        self.message = message
        self.expected = expected
        self.actual = actual
    }
}

/// Why a step could not be carried out.
package struct StepError: Sendable {
    /// A short machine-readable kind (`connection_refused`, `timeout`, `template`, …).
    package var type: String
    package var message: String
    package var hint: String?
    package var location: SourceRange?
    /// Longer text for reports, when the message alone is not the whole story
    /// (every diagnostic of an invalid workflow, rendered).
    package var details: String?

    package init(type: String, message: String, hint: String? = nil, location: SourceRange? = nil, details: String? = nil) {
        self.type = type
        self.message = message
        self.hint = hint
        self.location = location
        self.details = details
    }
}

/// A variable a step captured.
package struct CapturedValue: Sendable {
    package var name: String
    package var value: JSONValue
    package var secret: Bool
}

/// One try at a step's request: what was sent and what came back.
package struct Attempt: Sendable {
    package var request: HTTPRequest
    package var response: HTTPResponse?
    package var error: HTTPError?
    package var failures: [AssertionFailure]
    /// When the attempt started, relative to the start of the run.
    package var startMicroseconds: Int
    /// The attempt's own duration (its request and checks; the wait after it is not included).
    package var durationMicroseconds = 0
    /// Set when another attempt followed: why, and the wait before it.
    package var retry: AttemptRetry?

    package init(request: HTTPRequest, response: HTTPResponse? = nil, error: HTTPError? = nil,
                 failures: [AssertionFailure] = [], startMicroseconds: Int = 0) {
        self.request = request
        self.response = response
        self.error = error
        self.failures = failures
        self.startMicroseconds = startMicroseconds
    }
}

/// What the engine reports while it runs, so a console can stream progress.
package enum RunEvent: Sendable {
    case workflowStarted(file: String, name: String)
    case stepFinished(file: String, StepResult)
    case workflowFinished(WorkflowResult)
    /// Something a user should know that fails nothing (`warning: …` on the console).
    case warning(file: String, message: String)
    /// An attempt of `step` (its display name) is retried: the console shows it as it happens.
    case attemptRetried(file: String, step: String, AttemptRetry)
}
