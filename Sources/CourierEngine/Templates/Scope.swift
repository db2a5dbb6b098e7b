import CourierHTTP
import CourierJSON

/// The names a template can see at one point of a run.
///
/// Captures and `vars` share one namespace; later definitions shadow earlier
/// ones. `env` and `steps` are reserved and resolved separately, and so is `request` while a
/// step's expectations and captures are checked.
package struct Scope: Sendable {
    package var variables: [String: JSONValue]
    package var environment: [String: String]
    /// `steps.<id>` values: status, headers, json, body, duration_ms.
    package var steps: [String: JSONValue]
    /// The request the step sent, while its expectations and captures are checked: `request`
    /// then names it, before any variable of that name.
    package var sentRequest: HTTPRequest?

    package init(variables: [String: JSONValue] = [:], environment: [String: String] = [:], steps: [String: JSONValue] = [:]) {
        self.variables = variables
        self.environment = environment
        self.steps = steps
    }

    package subscript(name: String) -> JSONValue? {
        get { variables[name] }
        set { variables[name] = newValue }
    }
}
