@testable import CourierEngine
import Testing

/// The auth flow's "log in again, then resend": once per request, only on `refresh_on`.
@Suite struct RefreshOnStatusTests {
    @Test("a status in refresh_on logs in again once; the next refusal is 'refused too'; other statuses and no response keep")
    func oncePerRequest() {
        var refresh = RefreshOnStatus(refreshOn: [401, 419])
        #expect(refresh.decide(afterStatus: 503) == .keep)
        #expect(refresh.decide(afterStatus: nil) == .keep)
        #expect(!refresh.spent)
        #expect(refresh.decide(afterStatus: 419) == .logInAgainAndResend)
        #expect(refresh.spent)
        #expect(refresh.decide(afterStatus: 200) == .keep)
        #expect(refresh.decide(afterStatus: 401) == .refusedAgain(status: 401))
        #expect(refresh.decide(afterStatus: 401) == .refusedAgain(status: 401))
    }

    @Test("the refusal names the status and refresh_on")
    func refusalText() {
        let failure = RefreshOnStatus(refreshOn: [401]).refusal(status: 401, at: nil)
        #expect(failure.failed)
        #expect(failure.message == "the refreshed credentials were refused too: 401 again after logging in again")
        #expect(failure.expected?.rendered == "a status not in refresh_on [401]")
        #expect(failure.actual?.rendered == "401")
    }
}
