@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierWorkflow
import Foundation
import Testing

/// Answers by URL path: `/status/N` → N, `/login` and `/ids` → JSON bodies, anything else → 200 "ok".
private func routed() -> FakeTransport {
    FakeTransport { request in
        let path = URLComponents(string: request.url)?.path ?? ""
        if path.hasPrefix("/status/"), let code = Int(path.dropFirst("/status/".count)) {
            return .success(textResponse(code, "status \(code)"))
        }
        switch path {
        case "/login":
            return .success(jsonResponse(200, #"{"token":"tok-1","user":{"id":7,"roles":["admin"]}}"#,
                                         headers: ["X-Request-Id": "req-9", "Set-Cookie": "session=s1; Path=/"]))
        case "/ids":
            return .success(jsonResponse(200, #"{"ids":[10,20]}"#))
        default:
            return .success(textResponse(200, "ok"))
        }
    }
}

private func paths(_ requests: [HTTPRequest]) -> [String] {
    requests.map { request in
        let components = URLComponents(string: request.url)
        return (components?.path ?? "") + (components?.query.map { "?" + $0 } ?? "")
    }
}

@Suite struct StepOrderTests {
    @Test func stepsRunInOrder() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - { name: one, request: { url: /a } }
          - { name: two, request: { url: /b } }
          - { name: three, request: { url: /c } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/a", "/b", "/c"])
        #expect(outcome.steps.map(\.name) == ["one", "two", "three"])
        #expect(outcome.steps.allSatisfy { $0.outcome.isPassed })
        #expect(outcome.result.passed)
    }

    @Test func defaultStepNameIsMethodAndURL() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - request: { method: post, url: "/users/{{ id }}" }
        vars: { id: 3 }
        """, transport: routed())
        #expect(outcome.steps.first?.name == "POST /users/{{ id }}")
    }

    @Test func aFailedStepSkipsTheRestButTeardownRuns() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - { name: one, request: { url: /a } }
          - { name: two, request: { url: /b }, expect: { status: 201 } }
          - { name: three, request: { url: /c } }
        teardown:
          - { name: cleanup, request: { method: DELETE, url: /c } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/a", "/b", "/c"])
        #expect(outcome.requests.last?.method == "DELETE")
        #expect(outcome.steps.map(\.name) == ["one", "two", "three", "cleanup"])
        #expect(outcome.steps[1].outcome.failures.map(\.message) == ["status: expected 201, got 200"])
        #expect(outcome.steps[2].outcome.skipReason?.description == "an earlier step failed")
        #expect(outcome.steps[3].phase == .teardown)
        #expect(outcome.steps[3].outcome.isPassed)
        #expect(!outcome.result.passed)
    }

    @Test func workflowContinueOnFailureRunsEveryStep() async throws {
        let outcome = try await run("""
        continue_on_failure: true
        defaults: { base_url: http://h }
        steps:
          - { request: { url: /status/500 } }
          - { request: { url: /b } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/status/500", "/b"])
        #expect(outcome.steps[1].outcome.isPassed)
        #expect(!outcome.result.passed, "the failure still fails the workflow")
    }

    @Test func stepContinueOnFailureRunsTheNextStep() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - { request: { url: /status/500 }, continue_on_failure: true }
          - { request: { url: /status/500 } }
          - { request: { url: /c } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/status/500", "/status/500"])
        #expect(outcome.steps[2].outcome.skipReason?.description == "an earlier step failed")
    }

    @Test func stepContinueOnFailureFalseOverridesTheWorkflow() async throws {
        let outcome = try await run("""
        continue_on_failure: true
        defaults: { base_url: http://h }
        steps:
          - { request: { url: /status/500 }, continue_on_failure: false }
          - { request: { url: /b } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/status/500"])
        #expect(outcome.steps[1].outcome.skipReason?.description != nil)
    }

    @Test func aSetupFailureSkipsTheStepsAndTeardownStillRuns() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        setup:
          - { name: prepare, request: { url: /status/503 } }
          - { name: prepare more, request: { url: /b } }
        steps:
          - { name: main, request: { url: /c } }
        teardown:
          - { name: cleanup, request: { url: /d } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/status/503", "/d"])
        #expect(outcome.steps.map(\.phase) == [.setup, .setup, .steps, .teardown])
        #expect(outcome.steps[1].outcome.skipReason?.description == "setup failed")
        #expect(outcome.steps[2].outcome.skipReason?.description == "setup failed")
        #expect(outcome.steps[3].outcome.isPassed)
    }

    @Test func everyTeardownStepRunsEvenWhenOneFails() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - { request: { url: /a } }
        teardown:
          - { request: { url: /status/500 } }
          - { request: { url: /e } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/a", "/status/500", "/e"])
    }
}

@Suite struct ConditionAndLoopTests {
    @Test func aFalseConditionSkipsTheStep() async throws {
        let outcome = try await run("""
        vars: { env_name: prod, n: 3 }
        defaults: { base_url: http://h }
        steps:
          - { name: literal false, if: false, request: { url: /a } }
          - { name: false expression, if: "env_name == 'dev'", request: { url: /b } }
          - { name: true expression, if: "n > 1 and env_name == 'prod'", request: { url: /c } }
          - { name: braces, if: "{{ not (n > 5) }}", request: { url: /d } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/c", "/d"])
        #expect(outcome.steps[0].outcome.skipReason?.description == "condition is false")
        #expect(outcome.steps[1].outcome.skipReason?.description == "condition is false")
        #expect(outcome.result.passed, "a skipped step is not a failure")
    }

    @Test func aConditionOnAnUnknownVariableErrorsTheStep() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - { if: "missing == 1", request: { url: /a } }
        """, transport: routed())
        #expect(outcome.requests.isEmpty)
        #expect(outcome.steps[0].outcome.error?.type == "template")
        #expect(outcome.steps[0].outcome.error?.message == "unknown variable 'missing'")
    }

    @Test func forEachOverAList() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - name: get item
            for_each: [apple, 2, "{{ extra }}"]
            request: { url: "/items/{{ item }}?i={{ index }}" }
          - { name: after, request: { url: "/after" } }
        vars: { extra: pear }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/items/apple?i=0", "/items/2?i=1", "/items/pear?i=2", "/after"])
        #expect(outcome.steps.map(\.iteration) == [1, 2, 3, nil])
        #expect(outcome.steps.map(\.displayName) == ["get item [1]", "get item [2]", "get item [3]", "after"])
    }

    @Test func forEachOverAnExpression() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - { id: list, request: { url: /ids }, capture: { captured: $.ids } }
          - for_each: steps.list.json.ids
            request: { url: "/ids/{{ item }}" }
          - for_each: "{{ captured }}"
            request: { url: "/again/{{ item }}" }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/ids", "/ids/10", "/ids/20", "/again/10", "/again/20"])
        #expect(outcome.steps.map(\.iteration) == [nil, 1, 2, 1, 2])
    }

    @Test func forEachOverANonListErrors() async throws {
        let outcome = try await run("""
        vars: { n: 3 }
        defaults: { base_url: http://h }
        steps:
          - { for_each: n, request: { url: /a } }
        """, transport: routed())
        #expect(outcome.requests.isEmpty)
        #expect(outcome.steps[0].outcome.error?.message == "for_each needs a list, found a number")
    }

    @Test func itemAndIndexAreGoneAfterTheLoop() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        continue_on_failure: true
        steps:
          - { for_each: [a], request: { url: "/x/{{ item }}" } }
          - { request: { url: "/y/{{ item }}" } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/x/a"])
        #expect(outcome.steps[1].outcome.error?.message == "unknown variable 'item'")
    }

    @Test func aFailingIterationFailsTheStepButTheOthersRun() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - { for_each: [200, 500, 204], request: { url: "/status/{{ item }}" } }
          - { request: { url: /after } }
        """, transport: routed())
        #expect(paths(outcome.requests) == ["/status/200", "/status/500", "/status/204"])
        #expect(outcome.steps[3].outcome.skipReason?.description == "an earlier step failed")
    }
}

@Suite struct VariableTests {
    @Test func capturesAndStepValuesFeedLaterSteps() async throws {
        let outcome = try await run("""
        defaults: { base_url: http://h }
        steps:
          - id: login
            request: { method: POST, url: /login }
            capture: { token: $.token, uid: $.user.id }
          - request:
              url: "/users/{{ uid }}"
              auth: { bearer: "{{ token }}" }
              headers:
                X-Status: "{{ steps.login.status }}"
                X-Role: "{{ steps.login.json.user.roles[0] }}"
                X-Req: "{{ steps.login.headers['x-request-id'] }}"
                X-Req-Case: "{{ steps['login'].headers['x-REQUEST-Id'] }}"
                X-Body: "{{ steps.login.body | length }}"
        """, transport: routed())
        #expect(outcome.steps.allSatisfy { $0.outcome.isPassed }, "\(outcome.steps.map(\.outcome))")
        let second = try #require(outcome.requests.last)
        #expect(second.url == "http://h/users/7")
        #expect(second.headers["Authorization"] == "Bearer tok-1")
        #expect(second.headers["X-Status"] == "200")
        #expect(second.headers["X-Role"] == "admin")
        #expect(second.headers["X-Req"] == "req-9")
        #expect(second.headers["X-Req-Case"] == "req-9", "header names in steps.<id>.headers are case-insensitive")
        #expect(second.headers["X-Body"] == "51")
        #expect(outcome.steps[0].captures.map(\.name) == ["token", "uid"])
        #expect(outcome.steps[0].captures.map(\.value) == ["tok-1", 7])
    }

    @Test func secretsAndSecretCapturesAreListedForMasking() async throws {
        let outcome = try await run("""
        vars: { user: ada }
        secrets:
          password: hunter2
          pin: 1234
          derived: "{{ user }}:{{ password }}"
        defaults: { base_url: http://h }
        steps:
          - request: { url: /login }
            capture: { token: { json: $.token, secret: true }, uid: $.user.id }
        """, transport: routed())
        // The response's Set-Cookie counts too (the jar sends it back on its own): the pair
        // `session=s1`; its value alone is too short to mask without hiding unrelated text.
        #expect(Set(outcome.secrets) == ["hunter2", "1234", "ada:hunter2", "tok-1", "session=s1"])
        #expect(outcome.steps[0].captures.first { $0.name == "token" }?.secret == true)
        #expect(outcome.steps[0].captures.first { $0.name == "uid" }?.secret == false)
    }

    @Test func commandLineBeatsVarsFileBeatsVars() async throws {
        var settings = RunSettings()
        settings.fileVariables = [("a", "file-a"), ("b", "file-b")]
        settings.commandLineVariables = [("a", "cli-a"), ("a", "cli-a2")]
        let outcome = try await run("""
        vars:
          a: yaml-a
          b: yaml-b
          c: yaml-c
          all: "{{ a }},{{ b }},{{ c }}"
        steps:
          - request: { url: "http://h/x?v={{ all }}" }
        """, transport: routed(), settings: settings)
        #expect(paths(outcome.requests) == ["/x?v=cli-a2,file-b,yaml-c"])
    }

    @Test func overridesAlsoWinForSecrets() async throws {
        var settings = RunSettings()
        settings.commandLineVariables = [("password", "from-cli")]
        let outcome = try await run("""
        secrets: { password: from-file }
        steps:
          - request: { url: "http://h/x?p={{ password }}" }
        """, transport: routed(), settings: settings)
        #expect(paths(outcome.requests) == ["/x?p=from-cli"])
        #expect(outcome.secrets == ["from-cli"])
    }

    @Test func varsUseEarlierVarsAndTheEnvironment() async throws {
        var settings = RunSettings()
        settings.environment = ["HOST": "example.test"]
        let outcome = try await run("""
        vars:
          host: "{{ env.HOST }}"
          base: "http://{{ host }}/api"
          port: "{{ env.PORT | default(8080) }}"
        steps:
          - request: { url: "{{ base }}/x?port={{ port }}" }
        """, transport: routed(), settings: settings)
        #expect(outcome.requests.first?.url == "http://example.test/api/x?port=8080")
    }

    @Test func anUnknownVariableInAVarErrorsAndSkipsEverything() async throws {
        let yaml = """
        vars:
          base: "{{ nope }}"
        steps:
          - request: { url: http://h/x }
        """
        let outcome = try await run(yaml, transport: routed())
        #expect(outcome.requests.isEmpty)
        #expect(outcome.steps.first?.outcome.error?.message == "unknown variable 'nope'")
        starts(outcome.steps.first?.outcome.error?.location, at: "nope", in: yaml)
        #expect(outcome.steps.last?.outcome.skipReason?.description != nil)
    }

    @Test func unknownVariableInARequestNamesItWithItsPositionInTheFile() async throws {
        let yaml = """
        vars:
          user_id: 7
        steps:
          - name: get user
            request:
              url: "http://h/users/{{ user_ud }}"
        """
        let outcome = try await run(yaml, transport: routed())
        #expect(outcome.requests.isEmpty, "nothing is sent with a broken template")
        let error = try #require(outcome.steps.first?.outcome.error)
        #expect(error.type == "template")
        #expect(error.message == "unknown variable 'user_ud'; did you mean 'user_id'?")
        let location = try #require(error.location)
        #expect(location.file == testWorkflowPath)
        starts(location, at: "user_ud", in: yaml)
    }
}

@Suite struct ErrorAndStatusTests {
    @Test(arguments: [
        (HTTPError.Kind.connectionRefused, "connection_refused"),
        (.timeout, "timeout"),
        (.tls, "tls"),
        (.hostNotFound, "host_not_found"),
    ])
    func transportErrorsErrorTheStep(kind: HTTPError.Kind, type: String) async throws {
        let transport = FakeTransport { _ in .failure(HTTPError(kind: kind, message: "it broke", hint: "try again")) }
        let yaml = """
        steps:
          - request: { url: http://h/a }
          - request: { url: http://h/b }
        """
        let outcome = try await run(yaml, transport: transport)
        let error = try #require(outcome.steps.first?.outcome.error)
        #expect(error.type == type)
        #expect(error.message == "it broke")
        #expect(error.hint == "try again")
        #expect(outcome.steps.first?.attempts.count == 1)
        #expect(outcome.steps.first?.attempts.first?.error?.kind == kind.description)
        #expect(outcome.steps.first?.attempts.first?.request.url == "http://h/a")
        #expect(outcome.steps[1].outcome.skipReason?.description == "an earlier step failed")
        #expect(!outcome.result.passed)
    }

    @Test(arguments: [400, 404, 500, 599])
    func anErrorStatusWithoutExpectStatusFails(status: Int) async throws {
        let yaml = """
        steps:
          - request: { url: "http://h/status/\(status)" }
        """
        let outcome = try await run(yaml, transport: routed())
        let failures = outcome.steps[0].outcome.failures
        #expect(failures.map(\.message) == ["status \(status) is an error; add 'expect: { status: \(status) }' to the step if that is what you want"])
        #expect(failures.first?.actual?.rendered == String(status))
    }

    @Test(arguments: [200, 204, 301, 399])
    func aNonErrorStatusWithoutExpectStatusPasses(status: Int) async throws {
        let outcome = try await run("steps:\n  - request: { url: \"http://h/status/\(status)\" }\n", transport: routed())
        #expect(outcome.steps[0].outcome.isPassed)
    }

    @Test func anExpectedErrorStatusPasses() async throws {
        let outcome = try await run("""
        steps:
          - request: { url: http://h/status/404 }
            expect: { status: 404 }
        """, transport: routed())
        #expect(outcome.steps[0].outcome.isPassed)
    }

    @Test func attemptsRecordRequestAndResponse() async throws {
        let outcome = try await run("steps:\n  - request: { url: http://h/login }\n", transport: routed())
        let attempt = try #require(outcome.steps[0].attempts.first)
        #expect(outcome.steps[0].attempts.count == 1)
        #expect(attempt.request.url == "http://h/login")
        #expect(attempt.response?.status == 200)
        #expect(attempt.failures.isEmpty)
    }
}

@Suite struct EventTests {
    @Test func eventsAreEmittedInOrder() async throws {
        let outcome = try await run("""
        name: ordered
        steps:
          - { name: one, request: { url: http://h/a } }
          - { name: two, request: { url: http://h/status/500 } }
          - { name: three, request: { url: http://h/c } }
        teardown:
          - { name: down, request: { url: http://h/d } }
        """, transport: routed())
        let summary: [String] = outcome.events.compactMap { event in
            switch event {
            case .workflowStarted(let file, let name): "started \(name) \(file)"
            case .stepFinished(_, let step): "step \(step.name)"
            case .workflowFinished(let result): "finished \(result.name) \(result.passed)"
            case .warning(_, let message): "warning \(message)"
            case .attemptRetried(_, let step, _): "retry \(step)"
            case .attemptFinished: nil
            }
        }
        #expect(summary == ["started ordered \(testWorkflowPath)", "step one", "step two", "step three", "step down", "finished ordered false"])
    }

    @Test func runResultHoldsEveryWorkflowInOrder() async throws {
        let first = try decode("name: first\nsteps:\n  - request: { url: http://h/a }\n", path: "/tmp/courier-etests/a.yaml")
        let second = try decode("name: second\nsteps:\n  - request: { url: http://h/status/500 }\n", path: "/tmp/courier-etests/b.yaml")
        let result = await Engine(transport: routed(), settings: RunSettings()).run([first, second])
        #expect(result.workflows.map(\.name) == ["first", "second"])
        #expect(!result.passed)
        #expect(!result.interrupted)
    }

    @Test func failFastStopsAfterTheFirstFailedWorkflow() async throws {
        let failing = try decode("name: failing\nsteps:\n  - request: { url: http://h/status/500 }\n", path: "/tmp/courier-etests/a.yaml")
        let other = try decode("name: other\nsteps:\n  - request: { url: http://h/a }\n", path: "/tmp/courier-etests/b.yaml")
        var settings = RunSettings()
        settings.failFast = true
        let result = await Engine(transport: routed(), settings: settings).run([failing, other])
        // The one not started is reported, every step skipped, so reports list the same test cases every run.
        #expect(result.workflows.map(\.name) == ["failing", "other"])
        #expect(result.workflows.last?.steps.map(\.outcome.skipReason?.description) == ["not run: --fail-fast"])
        #expect(!result.interrupted)
    }
}
