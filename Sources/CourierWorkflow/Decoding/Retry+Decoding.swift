import CourierDiagnostics

extension WorkflowDecoder {
    func retryPolicy(_ node: YAMLNode) -> StepRetry? {
        let keys = ["attempts", "delay", "backoff", "factor", "max_delay", "jitter", "on", "abort_if"]
        guard let f = fields(node, in: "retry", allowed: keys) else { return nil }
        var policy = StepRetry(range: node.range)
        policy.attempts = f["attempts"].flatMap { int($0, for: "attempts", minimum: 1) }
        policy.delay = f["delay"].flatMap { duration($0, for: "delay") }
        policy.backoff = f["backoff"].flatMap { choice($0, for: "backoff", Backoff.allCases.map { ($0.rawValue, $0) }) }
        policy.factor = f["factor"].flatMap { number($0, for: "factor") }
        policy.maxDelay = f["max_delay"].flatMap { duration($0, for: "max_delay") }
        policy.jitter = f["jitter"].flatMap { bool($0, for: "jitter") }
        if let on = f["on"], let items = sequence(on, for: "on") {
            policy.on = items.compactMap(retryCondition)
        }
        if let abort = f["abort_if"] { policy.abortIf = expectations(abort, in: "abort_if") }
        return policy
    }

    private func retryCondition(_ node: YAMLNode) -> RetryCondition? {
        if let scalar = node.scalar {
            switch scalar.text {
            case "network": return .network
            case "timeout": return .timeout
            case "expect": return .expect
            default: break
            }
            if let code = Int(scalar.text), (100...599).contains(code) { return .status(code) }
            let lower = scalar.text.lowercased()
            if lower.count == 3, lower.hasSuffix("xx"), let digit = Int(lower.prefix(1)), (1...5).contains(digit) {
                return .statusClass(digit)
            }
        }
        let found = node.scalar.map { "'\($0.text)'" } ?? node.kindDescription
        let hint = node.scalar.flatMap { suggestion(for: $0.text, among: ["network", "timeout", "expect"]) }.map { "; did you mean '\($0)'?" }
            ?? "; expected 'network', 'timeout', 'expect', a status like 503 or a class like '5xx'"
        error("invalid retry condition \(found)\(hint)", at: node.range)
        return nil
    }

    /// The workflow-wide `auth:` flow.
    func authFlow(_ node: YAMLNode) -> AuthFlow? {
        guard let f = fields(node, in: "auth", allowed: ["login", "apply", "refresh_on"]) else { return nil }
        let login = required(f, "login", in: "auth").map { steps($0, for: "login") } ?? []
        var headers: [HeaderEntry] = []
        var query: [(name: Template, values: [TemplateValue])] = []
        if let apply = required(f, "apply", in: "auth"),
           let a = fields(apply, in: "auth.apply", allowed: ["headers", "query"]) {
            if let h = a["headers"] { headers = self.headers(h, for: "headers") }
            if let q = a["query"] { query = self.query(q) }
            if a["headers"] == nil && a["query"] == nil {
                error("'auth.apply' needs 'headers' or 'query' (what to add to each request)", at: apply.range)
            }
        }
        var refreshOn = [401]
        if let r = f["refresh_on"], let items = sequence(r, for: "refresh_on") {
            refreshOn = items.compactMap { int($0, for: "refresh_on", minimum: 100) }
        }
        return AuthFlow(login: login, applyHeaders: headers, applyQuery: query, refreshOn: refreshOn, range: node.range)
    }
}
