import CourierJSON

/// The names a template can see at one point of a run.
///
/// Captures and `vars` share one namespace; later definitions shadow earlier
/// ones. `env` and `steps` are reserved and resolved separately.
package struct Scope: Sendable {
    package var variables: [String: JSONValue]
    package var environment: [String: String]
    /// `steps.<id>` values: status, headers, json, body, duration_ms.
    package var steps: [String: JSONValue]

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
