import CourierDiagnostics

extension WorkflowDecoder {
    /// Keys users put one level off, with a message saying where they belong.
    static let stepHints: [String: String] = [
        "method": "'method' belongs inside 'request:'",
        "url": "'url' belongs inside 'request:'",
        "headers": "'headers' belongs inside 'request:' (or 'expect:' to check response headers)",
        "json": "'json' belongs inside 'request:' (to send) or 'expect:' (to check)",
        "status": "'status' belongs inside 'expect:'",
    ]
    static let stepKeys = ["name", "id", "request", "include", "vars", "expect", "capture", "retry", "if",
                           "for_each", "delay", "continue_on_failure"]

    /// A list of steps (`steps:`, `setup:`, `teardown:`, `auth.login`).
    func steps(_ node: YAMLNode, for key: String) -> [Step] {
        if node.isNull { return [] }
        guard let items = sequence(node, for: key) else { return [] }
        return items.compactMap(step)
    }

    func step(_ node: YAMLNode) -> Step? {
        guard let f = fields(node, in: "step", allowed: Self.stepKeys, hints: Self.stepHints) else { return nil }

        var action: StepAction?
        switch (f.key("request"), f.key("include")) {
        case (nil, nil):
            error("a step needs 'request' or 'include'", at: node.range)
        case let (requestKey?, includeKey?):
            let (first, second) = requestKey.range.start < includeKey.range.start ? ("request", includeKey) : ("include", requestKey)
            error("a step has either 'request' or 'include', not both", at: second.range,
                  notes: [.note("'\(first)' is set here", at: (first == "request" ? requestKey : includeKey).range)])
        case (_?, nil):
            if let r = f["request"].flatMap(request) { action = .request(r) }
        case (nil, _?):
            if let i = f["include"].flatMap({ include($0, stepVars: f["vars"]) }) { action = .include(i) }
        }
        if let varsKey = f.key("vars"), f.key("include") == nil {
            error("'vars' on a step applies only to 'include'; use top-level 'vars' for the workflow", at: varsKey.range)
        }
        if f.key("include") != nil, f.key("request") == nil {
            // An include step sends nothing itself: these keys would be silently ignored.
            for key in ["id", "expect", "capture", "retry"] {
                if let k = f.key(key) {
                    error("'\(key)' does not apply to an 'include' step; put it on the included steps", at: k.range)
                }
            }
        }

        var id: Located<String>?
        if let idNode = f["id"], let value = string(idNode, for: "id") {
            if !isValidName(value.value) {
                error("invalid step id '\(value.value)'; use letters, digits, '_' and '-' (not starting with a digit)", at: idNode.range)
            } else if let first = stepIDs[value.value] {
                // Streamed steps are decoded before `setup:`: the error goes to the later one.
                let (earlier, later) = first.start < idNode.range.start ? (first, idNode.range) : (idNode.range, first)
                error("duplicate step id '\(value.value)'", at: later, notes: [.note("first used here", at: earlier)])
            } else {
                stepIDs[value.value] = idNode.range
                id = value
            }
        }
        let name = f["name"].flatMap { template($0, for: "name") }
        let expect = f["expect"].map { expectations($0) } ?? Expectations(range: node.range)
        let capture = f["capture"].map(captures) ?? []
        let retry = f["retry"].flatMap(retryPolicy)
        let condition = f["if"].flatMap(condition)
        let forEach = f["for_each"].flatMap(forEach)
        let delay = f["delay"].flatMap { duration($0, for: "delay") }
        let continueOnFailure = f["continue_on_failure"].flatMap { bool($0, for: "continue_on_failure") }
        guard let action else { return nil }
        return Step(name: name, id: id, action: action, expect: expect, capture: capture, retry: retry,
                    condition: condition, forEach: forEach, delay: delay, continueOnFailure: continueOnFailure, range: node.range)
    }

    private func include(_ node: YAMLNode, stepVars: YAMLNode?) -> Include? {
        if case .mapping = node.kind {
            guard let f = fields(node, in: "include", allowed: ["path", "vars"]) else { return nil }
            guard let path = required(f, "path", in: "include").flatMap({ template($0, for: "path") }) else { return nil }
            var vars = f["vars"].map { variables($0, for: "vars") } ?? []
            if let stepVars { vars += variables(stepVars, for: "vars") }
            return Include(path: path, vars: vars, range: node.range, resolved: resolveInclude(path))
        }
        guard let path = template(node, for: "include") else { return nil }
        return Include(path: path, vars: stepVars.map { variables($0, for: "vars") } ?? [], range: node.range,
                       resolved: resolveInclude(path))
    }

    /// `if:` — an expression (optionally inside `{{ }}`) or a literal boolean.
    private func condition(_ node: YAMLNode) -> Expression? {
        if let scalar = node.scalar, case .bool(let b) = scalar.value {
            return Expression(.bool(b), range: node.range)
        }
        guard let scalar = node.scalar, case .string = scalar.value else {
            error("expected an expression for 'if', found \(node.kindDescription)", at: node.range)
            return nil
        }
        return ExpressionParser.parseCondition(scalar.text, positions: TextPositions(node: node), diagnostics: &diagnostics)
    }

    /// `for_each:` — a literal list, or an expression giving one.
    private func forEach(_ node: YAMLNode) -> ForEach? {
        switch node.kind {
        case .sequence(let items):
            return .list(items.map(templateValue))
        case .scalar(let scalar) where scalar.value == .string:
            return ExpressionParser.parseCondition(scalar.text, positions: TextPositions(node: node), diagnostics: &diagnostics)
                .map(ForEach.expression)
        default:
            error("expected a list or an expression for 'for_each', found \(node.kindDescription)", at: node.range)
            return nil
        }
    }
}
