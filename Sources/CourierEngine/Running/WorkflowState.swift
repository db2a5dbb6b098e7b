import CourierHTTP
import CourierJSON
import CourierWorkflow

/// Where a step runs: the directory its relative paths resolve against, the
/// names of the includes around it, and the files being run (for cycles).
struct StepContext {
    var directory: String
    /// `""`, or `login › ` inside an include (nested includes add more).
    var prefix: String
    var chain: [String]
    /// Inside the `auth:` flow's `login` steps: their requests get no `apply` and log in no one.
    var inLogin = false
    /// `""`, or ` (2)` for the entries of a second login run.
    var suffix = ""

    /// The context of a workflow's own steps.
    static func top(of workflow: Workflow) -> StepContext {
        StepContext(directory: workflow.directory, prefix: "", chain: [FilePaths.normalize(workflow.file)])
    }

    /// The context of the steps of an include inside this one.
    func entering(directory: String, label: String, file: String) -> StepContext {
        StepContext(directory: directory, prefix: prefix + label + " › ", chain: chain + [file], inLogin: inLogin, suffix: suffix)
    }
}

/// The variables of one workflow run, which its steps read and its captures change.
///
/// One object shared by the parts of the run (steps, includes, attempts, the login), all
/// in the workflow's one task: it never crosses threads.
final class WorkflowState {
    let workflow: Workflow
    var scope: Scope
    /// How often a capture has defined each name: an include restores its `vars` only where
    /// nothing defined them inside (by definition, never by comparing values).
    private(set) var captureDefinitions: [String: Int] = [:]
    /// One jar per workflow run, so runs never see each other's sessions.
    let cookieJar = CookieJar()
    private let functions: BuiltinFunctions

    init(workflow: Workflow, environment: [String: String], functions: BuiltinFunctions) {
        self.workflow = workflow
        self.scope = Scope(environment: environment)
        self.functions = functions
    }

    /// Renders templates against the scope as it is now.
    var renderer: TemplateRenderer { TemplateRenderer(scope: scope, functions: functions) }

    /// A renderer over another scope (an attempt's own copy) with the same functions.
    func renderer(over scope: Scope) -> TemplateRenderer { TemplateRenderer(scope: scope, functions: functions) }

    /// A committed capture: visible to the steps after it.
    func define(capture name: String, _ value: JSONValue) {
        scope[name] = value
        captureDefinitions[name, default: 0] += 1
    }
}
