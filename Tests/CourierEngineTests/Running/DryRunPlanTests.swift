@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import Testing

/// A dry run is chosen once, in the run plan: a delivery that never sends, a sleeper that
/// never sleeps, captures that hold placeholders.
@Suite struct DryRunPlanTests {
    @Test func theRunPlanChoosesTheDryRunsPartsOnlyForADryRun() {
        var settings = RunSettings()
        let live = RunPlan(engine: Engine(transport: FakeTransport(), settings: settings, sleeper: ManualClock()))
        #expect(live.delivery is TransportDelivery)
        #expect(live.sleeper is ManualClock)
        #expect(live.placeholders() is NoPlaceholders)
        settings.dryRun = true
        let dry = RunPlan(engine: Engine(transport: FakeTransport(), settings: settings, sleeper: ManualClock()))
        #expect(dry.delivery is NeverDelivered)
        #expect(dry.sleeper is NoWaitSleeper)
        #expect(dry.placeholders() is DryRunPlaceholders)
    }

    @Test func neverDeliveredSendsNothingEvenShielded() async {
        let request = HTTPRequest(url: "http://api/x")
        guard case .notSent = await NeverDelivered().deliver(request, shielded: true) else {
            Issue.record("a dry run's delivery answered")
            return
        }
    }

    @Test func theTransportDeliversAndReportsAFailure() async {
        let transport = FakeTransport { request in
            request.url.hasSuffix("/ok") ? .success(HTTPResponse(status: 204)) : .failure(HTTPError(kind: .connectionRefused, message: "refused"))
        }
        let delivery = TransportDelivery(transport: transport, control: RunControl())
        guard case .response(let response) = await delivery.deliver(HTTPRequest(url: "http://api/ok"), shielded: false) else {
            Issue.record("no response")
            return
        }
        #expect(response.status == 204)
        guard case .failure(let error) = await delivery.deliver(HTTPRequest(url: "http://api/no"), shielded: true) else {
            Issue.record("no failure")
            return
        }
        #expect(error.kind == .connectionRefused)
    }

    @Test func placeholdersLearnTheCapturesTheyStandInForAndStopStepsThatReadThem() throws {
        let workflow = try decode("""
            steps:
              - { name: login, request: { url: "http://api/login" }, capture: { token: $.token } }
              - { name: uses, if: "{{ token == 'x' }}", request: { url: "http://api/a" } }
              - { name: loops, for_each: "{{ steps.login.json.items }}", request: { url: "http://api/{{ item }}" } }
              - { name: plain, if: "{{ 1 == 1 }}", request: { url: "http://api/b" } }
            """)
        let placeholders = DryRunPlaceholders()
        #expect(placeholders.notRenderedReason(for: workflow.steps[1]) == nil)
        let values = placeholders.values(standingInFor: workflow.steps[0].capture)
        #expect(values.map(\.value) == [.string("<capture: token>")])
        #expect(placeholders.notRenderedReason(for: workflow.steps[1])?.description == "not rendered (--dry-run): if depends on capture token")
        #expect(placeholders.notRenderedReason(for: workflow.steps[2])?.description == "not rendered (--dry-run): for_each depends on capture steps")
        #expect(placeholders.notRenderedReason(for: workflow.steps[3]) == nil)
        // A real run decides every step and has no placeholders.
        #expect(NoPlaceholders().notRenderedReason(for: workflow.steps[1]) == nil)
        #expect(NoPlaceholders().values(standingInFor: workflow.steps[0].capture).isEmpty)
    }
}
