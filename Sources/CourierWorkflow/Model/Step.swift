import CourierDiagnostics

/// One step of `setup`, `steps`, `teardown` or `auth.login` (spec section 4).
package struct Step: Sendable {
    /// Nil: the engine shows `METHOD url`.
    package var name: Template?
    package var id: Located<String>?
    package var action: StepAction
    package var expect: Expectations
    package var capture: [Capture]
    /// Overrides `defaults.retry` as a whole.
    package var retry: RetryPolicy?
    /// `if:`; the step runs only when it is true.
    package var condition: Expression?
    package var forEach: ForEach?
    /// Wait before the step.
    package var delay: Duration?
    /// Nil: the workflow's `continue_on_failure`.
    package var continueOnFailure: Bool?
    package var range: SourceRange

    package init(name: Template?, id: Located<String>?, action: StepAction, expect: Expectations, capture: [Capture],
                 retry: RetryPolicy?, condition: Expression?, forEach: ForEach?, delay: Duration?,
                 continueOnFailure: Bool?, range: SourceRange) {
        self.name = name
        self.id = id
        self.action = action
        self.expect = expect
        self.capture = capture
        self.retry = retry
        self.condition = condition
        self.forEach = forEach
        self.delay = delay
        self.continueOnFailure = continueOnFailure
        self.range = range
    }

    /// The request, when this step sends one.
    package var request: Request? {
        if case .request(let r) = action { return r }
        return nil
    }
}

/// A step sends a request or includes other steps: exactly one.
package enum StepAction: Sendable {
    case request(Request)
    case include(Include)
}

/// `for_each:` — a literal list, or an expression that evaluates to one.
package enum ForEach: Sendable {
    case list([TemplateValue])
    case expression(Expression)
}

/// `include: path` (with optional `vars:`), or `include: { path: …, vars: … }`.
///
/// The path is relative to ``Workflow/directory``; the engine loads the file
/// (with ``loadIncludedSteps(path:sources:)``), checks cycles and runs its steps.
package struct Include: Sendable {
    package var path: Template
    package var vars: [VariableDefinition]
    package var range: SourceRange

    package init(path: Template, vars: [VariableDefinition], range: SourceRange) {
        self.path = path
        self.vars = vars
        self.range = range
    }
}
