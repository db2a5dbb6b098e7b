import CourierDiagnostics
@testable import CourierWorkflow
import Foundation
import Testing

private func fixture(_ name: String) throws -> Workflow {
    try decodeFixture(name).get()
}

private func literal(_ t: Template?) -> String? { t?.literalText }

/// Status patterns as written (`200`, `3xx`, `{{ … }}` for a template).
func statusTexts(_ patterns: [StatusPattern]) -> [String] {
    patterns.map { pattern in
        switch pattern {
        case .code(let code): String(code)
        case .statusClass(let digit): "\(digit)xx"
        case .template: "{{ … }}"
        }
    }
}

@Suite struct WorkflowDecodingTests {
    @Test func specSection1Example() throws {
        let w = try fixture("valid/auth-flow.yaml")
        #expect(w.name == "Log in, upload an avatar, poll a job")
        #expect(w.directory == "valid")
        #expect(w.tags.map(\.value) == ["smoke", "auth"])
        #expect(w.vars.map(\.name) == ["base_url", "user"])
        #expect(w.secrets.first?.value.template?.singleExpression != nil)
        #expect(w.defaults.timeout == .seconds(10))
        #expect(w.defaults.retry?.attempts == 3)
        #expect(w.defaults.retry?.delay == .milliseconds(200))
        #expect(w.defaults.headers.map(\.literalName) == ["Accept"])
        #expect(w.steps.count == 3)

        let login = w.steps[0]
        #expect(login.id?.value == "login")
        #expect(literal(login.request?.method) == "POST")
        guard case .json(let body)? = login.request?.body, case .object(let members) = body.kind else {
            Issue.record("expected a json object body")
            return
        }
        #expect(members.map(\.key) == ["username", "password"])
        guard let codes = login.expect.statusCodes else {
            Issue.record("expected status codes")
            return
        }
        #expect(statusTexts(codes) == ["200"])
        #expect(login.expect.json.map(\.path.text) == ["$.token_type", "$.expires_in", "$.access_token"])
        #expect(login.expect.json[1].path.range.start == SourceLocation(file: "valid/auth-flow.yaml", line: 26, column: 9))
        #expect(login.capture.map(\.name.value) == ["token", "user_id"])
        #expect(login.capture[0].secret)
        guard case .json(let path) = login.capture[1].source else {
            Issue.record("shorthand capture should be json")
            return
        }
        #expect(path.text == "$.user.id")
        #expect(login.capture[1].defaultValue == nil)

        let upload = w.steps[1]
        guard case .bearer? = upload.request?.auth, case .multipart(let parts)? = upload.request?.body else {
            Issue.record("expected bearer auth and multipart")
            return
        }
        #expect(parts.count == 2)
        guard case .file(let file) = parts[1].content else {
            Issue.record("second part should be a file")
            return
        }
        #expect(file.literalText == "fixtures/avatar.png")
        #expect(literal(parts[1].contentType) == "image/png")
        guard case .predicates(let predicates, _)? = upload.expect.duration, predicates.first?.name == "lt", case .value(let limit, _)? = predicates.first?.operand,
              case .number(let ms, let isInteger) = limit.kind else {
            Issue.record("expected duration lt")
            return
        }
        #expect(ms == "2000" && isInteger)

        let poll = w.steps[2]
        #expect(literal(poll.request?.method) == "GET")
        #expect(poll.retry?.attempts == 30)
        #expect(poll.retry?.backoff == .constant)
        #expect(poll.retry?.on == [.expect])
        #expect(poll.retry?.abortIf?.json.first?.path.text == "$.state")
    }

    @Test func requestsFixture() throws {
        let w = try fixture("valid/requests.yaml")
        #expect(w.description == "every body kind")
        #expect(w.continueOnFailure)
        #expect(w.setup.count == 1 && w.teardown.count == 1)
        let search = w.steps[0]
        #expect(search.delay == .milliseconds(250))
        #expect(search.continueOnFailure == false)
        #expect(search.condition != nil)
        guard case .list(let items)? = search.forEach else {
            Issue.record("for_each list")
            return
        }
        #expect(items.count == 2)
        #expect(search.request?.query.map(\.name.literalText) == ["q", "page", "tag"])
        #expect(search.request?.query[2].values.count == 2)
        guard case .basic? = search.request?.auth, case .form(let form)? = search.request?.body else {
            Issue.record("basic + form")
            return
        }
        #expect(form.map(\.name.literalText) == ["a", "b"])
        #expect(form[1].value.literalText == "3")

        guard case .multipart(let parts)? = w.steps[1].request?.body else {
            Issue.record("multipart")
            return
        }
        #expect(parts.map { $0.name.literalText ?? "" } == ["caption", "file", "note"])
        #expect(literal(parts[1].filename) == "a.png")
        guard case .text(_, let ct)? = w.steps[2].request?.body, case .file(_, let ct2)? = w.steps[3].request?.body else {
            Issue.record("text + file bodies")
            return
        }
        #expect(literal(ct) == "text/plain")
        #expect(literal(ct2) == "application/octet-stream")

        guard case .json(let json)? = w.steps[5].request?.body, case .object(let members) = json.kind else {
            Issue.record("json body")
            return
        }
        let byKey = Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
        guard case .number(let price, false)? = byKey["price"]?.kind, case .number(let hex, true)? = byKey["hex"]?.kind,
              case .string(let yes)? = byKey["ok"]?.kind, case .null? = byKey["nothing"]?.kind,
              case .string(let id)? = byKey["id"]?.kind else {
            Issue.record("json members")
            return
        }
        #expect(price == "1.50")
        #expect(hex == "31")
        #expect(yes.literalText == "yes")
        #expect(id.singleExpression != nil)
        guard case .expression? = w.steps[5].forEach else {
            Issue.record("for_each expression")
            return
        }

        guard case .include(let include) = w.steps[6].action, case .include(let include2) = w.steps[7].action else {
            Issue.record("includes")
            return
        }
        #expect(include.path.literalText == "_login.yaml")
        #expect(include.vars.map(\.name) == ["user"])
        #expect(include2.path.literalText == nil)
        #expect(include2.vars.map(\.name) == ["a"])
    }

    @Test func optionsAndRetryFixture() throws {
        let w = try fixture("valid/auth-and-retry.yaml")
        let auth = try #require(w.auth)
        #expect(auth.login.count == 1)
        #expect(auth.applyHeaders.map(\.literalName) == ["Authorization"])
        #expect(auth.refreshOn == [401])
        let d = w.defaults
        #expect(d.timeout == .milliseconds(1500))
        #expect(d.connectTimeout == .seconds(2))
        #expect(d.followRedirects == false && d.maxRedirects == 3 && d.httpVersion == .http2)
        #expect(d.compressed == true && d.cookies == false)
        #expect(literal(d.tls?.ca) == "certs/ca.pem" && d.tls?.insecure == false)
        let retry = try #require(w.steps[0].retry)
        #expect(retry.attempts == 5 && retry.factor == 2 && retry.maxDelay == .seconds(10) && retry.jitter == true)
        #expect(retry.on == StepRetry.defaultConditions)
        guard let abortCodes = retry.abortIf?.statusCodes, statusTexts(abortCodes) == ["403"] else {
            Issue.record("abort_if status")
            return
        }
        #expect(w.steps[1].retry?.on == [.statusClass(5), .expect])
        #expect(w.steps[1].retry?.effectiveAttempts == 1)
        guard case .none? = w.steps[1].request?.auth else {
            Issue.record("auth none")
            return
        }
        // The request's `X-Debug: null` removes the default; `X-Trace` stays.
        let merged = try #require(w.steps[0].request).options.merged(over: w.defaults)
        #expect(merged.headers.map(\.literalName) == ["X-Trace"])
        #expect(merged.timeout == .milliseconds(1500))
    }

    @Test func capturesFixture() throws {
        let w = try fixture("valid/captures.yaml")
        let c = w.steps[0].capture
        #expect(c.map(\.name.value) == ["token", "id", "next", "session", "csrf", "code", "raw", "refresh", "maybe", "loc", "took"])
        guard case .header("Location") = c[2].source, case .cookie("session_id") = c[3].source,
              case .regex(let pattern, .body) = c[4].source, case .status = c[5].source, case .body = c[6].source,
              case .regex(_, .header("Location")) = c[9].source, case .duration = c[10].source else {
            Issue.record("capture sources")
            return
        }
        #expect(pattern.value.source == #"name="csrf" value="([^"]+)""#)
        #expect(c[7].secret)
        guard case .null? = c[8].defaultValue?.kind else {
            Issue.record("explicit null default must be kept")
            return
        }
    }

    @Test func expectationsFixture() throws {
        let w = try fixture("valid/expectations.yaml")
        let e = w.steps[0].expect
        #expect(e.headerNames == ["Location"])
        #expect(e.cookieNames == ["session"])
        // A literal schema file is read and compiled at load.
        guard case .compiled(let schema, _)? = e.schema else {
            Issue.record("schema file compiled at load")
            return
        }
        #expect(schema.isValid(["id": 1]) && !schema.isValid([1]), "schemas/user.json says {\"type\": \"object\"}")
        // `{ name: Ada, roles: [admin] }` holds no predicate: object equality.
        guard case .equals(let object) = e.json[3].matcher, case .object = object.kind else {
            Issue.record("object equality")
            return
        }
        guard case .predicates(let ps, _) = e.json[1].matcher, ps[0].name == "length", case .matcher(.predicates) = ps[0].operand else {
            Issue.record("length predicate")
            return
        }
        guard let mixed = w.steps[1].expect.statusCodes, statusTexts(mixed) == ["200", "3xx"] else {
            Issue.record("mixed status list")
            return
        }
    }

    @Test func requestOptionsMerge() {
        let r = SourceRange(at: SourceLocation(file: "f", line: 1, column: 1))
        let lower = RequestOptions(headers: [HeaderEntry(name: "Accept", value: Template(literal: "a", range: r), range: r),
                                             HeaderEntry(name: "X-A", value: Template(literal: "1", range: r), range: r)],
                                   timeout: .seconds(30), followRedirects: true, tls: RequestTLSOptions(ca: Template(literal: "ca", range: r)))
        let upper = RequestOptions(headers: [HeaderEntry(name: "accept", value: Template(literal: "b", range: r), range: r),
                                             HeaderEntry(name: "x-a", value: nil, range: r),
                                             HeaderEntry(name: "X-New", value: Template(literal: "n", range: r), range: r)],
                                   timeout: .seconds(2), tls: RequestTLSOptions(insecure: true))
        let m = upper.merged(over: lower)
        #expect(m.headers.map(\.literalName) == ["accept", "X-New"])
        #expect(m.headers.first?.value?.literalText == "b")
        #expect(m.timeout == .seconds(2))
        #expect(m.followRedirects == true)
        #expect(m.tls?.insecure == true && m.tls?.ca?.literalText == "ca")
        #expect(RequestOptions().merged(over: lower).headers.count == 2)
    }

    @Test func defaultNameIsTheFileName() throws {
        let w = try decodeWorkflow(text: "steps: [{ request: { url: /a } }]\n", path: "dir/sub/smoke-test.yaml", sources: SourceStore()).get()
        #expect(w.name == "smoke-test")
        #expect(w.directory == "dir/sub")
        #expect(w.file == "dir/sub/smoke-test.yaml")
    }

    @Test func emptyFileIsAnError() {
        #expect(messages("# nothing\n") == ["the workflow is empty; it needs at least 'steps:'"])
    }

    @Test func collectsEveryError() {
        let m = messages("steps:\n  - request: { url: /a, metod: GET }\n  - request: { url: /b, bdy: x }\n")
        #expect(m == ["unknown key 'metod' in request; did you mean 'method'?", "unknown key 'bdy' in request; did you mean 'body'?"])
    }

    @Test func varsFile() throws {
        let sources = SourceStore()
        sources.register(path: "vars.yaml", text: "base_url: http://x\nretries: 3\nlist: [1, 2]\n")
        let vars = try loadVarsFile(path: "vars.yaml", sources: sources).get()
        #expect(vars.map(\.name) == ["base_url", "retries", "list"])
        sources.register(path: "empty.yaml", text: "")
        #expect(try loadVarsFile(path: "empty.yaml", sources: sources).get().isEmpty)
        sources.register(path: "bad.yaml", text: "- a\n")
        #expect(throws: DiagnosticList.self) { try loadVarsFile(path: "bad.yaml", sources: sources).get() }
    }

    @Test func includedSteps() throws {
        let sources = SourceStore()
        sources.register(path: "_login.yaml", text: "- request: { url: /login }\n- request: { url: /me }\n")
        #expect(try loadIncludedFile(path: "_login.yaml", sources: sources, chain: ["t.yaml"]).get().steps.count == 2)
        sources.register(path: "_wf.yaml", text: "steps:\n  - request: { url: /login }\n")
        #expect(try loadIncludedFile(path: "_wf.yaml", sources: sources, chain: ["t.yaml"]).get().steps.count == 1)
    }

    /// A 5 MB workflow (8,900 steps) loads whole. Its loading time is a benchmark
    /// figure (Benchmarks/yaml/bench.sh), not a timed test: a loaded CI machine
    /// made a wall-clock bound here fail for reasons that had nothing to do with the code.
    @Test func largeWorkflowLoads() throws {
        var text = "name: big\nsteps:\n"
        var i = 0
        while text.utf8.count < 5_000_000 {
            text += """
              - name: step \(i) {{ base }}
                request:
                  method: POST
                  url: /items/\(i)?x={{ token | url_encode }}
                  headers: { Accept: application/json, X-Id: "\(i)" }
                  json: { id: \(i), name: "item \(i)", tags: [a, b, c], price: 1.50 }
                expect:
                  status: [200, 201]
                  json: { $.id: \(i), $.items: { length: { gte: 1 } } }
                capture: { id\(i): $.id }

            """
            i += 1
        }
        let workflow = try decodeWorkflow(text: text, path: "big.yaml", sources: SourceStore()).get()
        #expect(workflow.steps.count == i)
    }
}
