import CourierDiagnostics
@testable import CourierWorkflow
import Testing

private func parseTemplate(_ text: String, exact: Bool = true) -> (Template, [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    let positions = TextPositions(base: SourceLocation(file: "t", line: 3, column: 10), exact: exact)
    let template = TemplateParser.parse(text, positions: positions, range: positions.range(0, text.count), diagnostics: &diagnostics)
    return (template, diagnostics)
}

/// A compact rendering of an expression tree, to compare shapes in tests.
private func shape(_ e: Expression) -> String {
    switch e.kind {
    case .variable(let n): return n
    case .member(let b, let n): return "\(shape(b)).\(n)"
    case .index(let b, let i): return "\(shape(b))[\(shape(i))]"
    case .string(let s): return "'\(s)'"
    case .number(let t, let isInteger): return isInteger ? t : "\(t)f"
    case .bool(let b): return String(b)
    case .null: return "null"
    case .call(let n, let args): return "\(n)(\(args.map(shape).joined(separator: ",")))"
    case .filter(let b, let n, let args): return "(\(shape(b))|\(n)(\(args.map(shape).joined(separator: ","))))"
    case .binary(let op, let l, let r): return "(\(shape(l)) \(op.rawValue) \(shape(r)))"
    case .not(let o): return "not \(shape(o))"
    }
}

@Suite struct TemplateTests {
    @Test func literalOnly() {
        let (t, d) = parseTemplate("/users/list")
        #expect(d.isEmpty)
        #expect(t.literalText == "/users/list")
        #expect(t.singleExpression == nil)
    }

    @Test func singleExpressionKeepsType() throws {
        let (t, d) = parseTemplate("{{ user_id }}")
        #expect(d.isEmpty)
        let e = try #require(t.singleExpression)
        #expect(shape(e) == "user_id")
        #expect(e.range.start.column == 13)
        #expect(e.range.end.column == 20)
    }

    @Test func mixedTemplateParts() throws {
        let (t, d) = parseTemplate("/users/{{ id }}/avatar")
        #expect(d.isEmpty)
        #expect(t.parts.count == 3)
        #expect(t.singleExpression == nil)
        guard case .expression(_, let range) = t.parts[1] else {
            Issue.record("expected an expression part")
            return
        }
        #expect(range.start.column == 17)
        #expect(range.end.column == 25)
    }

    @Test(arguments: [
        ("user.roles[0]", "user.roles[0]"),
        ("steps.login.json.items", "steps.login.json.items"),
        ("env.DEMO_PASSWORD | default('demo-pass')", "(env.DEMO_PASSWORD|default('demo-pass'))"),
        ("a | trim | upper", "((a|trim())|upper())"),
        ("random_int(1, 10)", "random_int(1,10)"),
        ("uuid()", "uuid()"),
        ("a == 1 and b != 'x' or not c", "(((a == 1) and (b != 'x')) or not c)"),
        ("x.length >= 2.5", "(x.length >= 2.5f)"),
        ("(a or b) and c", "((a or b) and c)"),
        ("items | length > 3", "((items|length()) > 3)"),
        ("null == none_var", "(null == none_var)"),
        ("a < -1", "(a < -1)"),
        ("\"}}\" == s", "('}}' == s)"),
        ("headers['Content-Type']", "headers['Content-Type']"),
        ("notice and order", "(notice and order)"),
    ])
    func expressionShapes(source: String, expected: String) throws {
        let (t, d) = parseTemplate("{{ \(source) }}")
        #expect(d.isEmpty, "\(d)")
        let e = try #require(t.singleExpression)
        #expect(shape(e) == expected)
    }

    @Test(arguments: [
        ("{{ user. }}", "expected a name after '.'", 18),
        ("{{ }}", "empty template expression; write a name between '{{' and '}}'", 12),
        ("x {{ a", "unterminated template: '{{' has no matching '}}'", 12),
        ("{{ a b }}", "unexpected 'b' after the expression", 15),
        ("{{ f(1, }}", "incomplete expression; expected a name, a number or a string", 18),
        ("{{ 'abc }}", "unterminated template: '{{' has no matching '}}'", 10),
        ("{{ a[1 }}", "expected ']' to close '['", 17),
        ("{{ a || b }}", "use 'or' instead of '||'", 15),
        ("{{ x | nope }}", "unknown filter 'nope'; known filters: base64_decode, base64_encode, days_after_now, days_before_now, default, first, float, format_date, int, json, last, length, lower, nth, sha256, string, to_date, trim, unix, upper, url_encode", 17),
        ("{{ random_int(1) }}", "function 'random_int' takes 2 arguments, found 1", 13),
        // Columns count Unicode scalars, though the parser reads UTF-8 bytes.
        ("héllo {{ a b }}", "unexpected 'b' after the expression", 21),
        ("{{ a é }}", "unexpected 'é' after the expression", 15),
        ("{{ '日本' | nope }}", "unknown filter 'nope'; known filters: base64_decode, base64_encode, days_after_now, days_before_now, default, first, float, format_date, int, json, last, length, lower, nth, sha256, string, to_date, trim, unix, upper, url_encode", 20),
        ("ü {{ 'a\\é }}", "unterminated template: '{{' has no matching '}}'", 12),
    ])
    func syntaxErrorsPointAtTheColumn(source: String, message: String, column: Int) throws {
        let (_, d) = parseTemplate(source)
        let first = try #require(d.first)
        #expect(first.message == message)
        #expect(first.range?.start.column == column)
    }

    @Test func nonASCIITextAndStringsSurvive() throws {
        let (template, d) = parseTemplate("héllo {{ 'wörld\\n' }} ✓")
        #expect(d.isEmpty)
        #expect(template.parts.count == 3)
        guard case .literal(let head) = template.parts[0], case .expression(let e, let range) = template.parts[1],
              case .literal(let tail) = template.parts[2] else {
            Issue.record("unexpected parts \(template.parts)")
            return
        }
        #expect(head == "héllo ")
        #expect(shape(e) == "'wörld\n'")
        #expect(range.start.column == 16 && range.end.column == 31)
        #expect(tail == " ✓")
    }

    @Test func inexactPositionsFallBackToTheScalarStart() throws {
        let (_, d) = parseTemplate("{{ a. }}", exact: false)
        #expect(d.first?.range?.start.column == 10)
    }

    @Test func quotedScalarPositionsAreExact() throws {
        let result = decode("steps:\n  - request: { url: \"/u/{{ a. }}\" }\n")
        guard case .failure(let list) = result else {
            Issue.record("expected failure")
            return
        }
        #expect(list.diagnostics.first?.range?.start == SourceLocation(file: "t.yaml", line: 2, column: 30))
    }
}
