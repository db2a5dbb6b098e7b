import CourierDiagnostics
import CourierJSON

/// Which list of the workflow a step came from.
package enum StepPhase: String, Sendable, Codable {
    case setup, steps, teardown, auth
}

/// One run of a step (a `for_each` step gives one result per item).
package struct StepResult: Sendable, Codable, Equatable {
    package var name: String
    package var phase: StepPhase
    /// 1-based item number of a `for_each` run.
    package var iteration: Int?
    /// Where the step starts in its file (or in the included file).
    package var location: SourceRange?
    package var outcome: StepOutcome
    /// Every attempt, first to last; the deciding one decides the outcome.
    package var attempts: [Attempt]
    /// Variables this step captured (committed), in declaration order.
    package var captures: [CapturedValue]
    /// When the step started (wall clock); `.zero` for a step that never ran (skipped).
    package var startedAt: Timestamp
    /// The step's wall clock, waits between attempts included.
    package var durationMicroseconds: Int

    /// The name reports show: `for_each` runs are numbered.
    package var displayName: String {
        iteration.map { "\(name) [\($0)]" } ?? name
    }
}

extension StepResult {
    // Here, not in the struct, so that the struct keeps its memberwise initializer (its
    // properties are declared in another order than this one's parameters, or the two
    // would clash): assigning the properties one by one was compiled to build the value
    // in a temporary and copy it out, a retain and a release of everything it holds.
    package init(name: String, phase: StepPhase, location: SourceRange? = nil, iteration: Int? = nil,
                 outcome: StepOutcome, attempts: [Attempt] = [], captures: [CapturedValue] = [],
                 startedAt: Timestamp = .zero, durationMicroseconds: Int = 0) {
        self.init(name: name, phase: phase, iteration: iteration, location: location, outcome: outcome, attempts: attempts,
                  captures: captures, startedAt: startedAt, durationMicroseconds: durationMicroseconds)
    }
}

/// A variable a step captured. A secret one is recorded as captured: every writer
/// masks it (the run's masking policy knows its value).
package struct CapturedValue: Sendable, Codable, Equatable {
    package var name: String
    package var value: JSONValue
    package var secret: Bool

    package init(name: String, value: JSONValue, secret: Bool) {
        self.name = name
        self.value = value
        self.secret = secret
    }
}
