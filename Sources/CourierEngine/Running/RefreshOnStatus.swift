import CourierDiagnostics
import CourierJSON
import CourierResults

/// The auth flow's say after one attempt of a step that got `apply`: the attempt loop's
/// "log in again, then resend", once per step (spec section 9). Kept apart from the
/// retry policy: a resend uses up no retry attempt, and a retry after it does not refresh.
struct RefreshOnStatus {
    enum Decision: Equatable {
        /// The status is not in `refresh_on`, or the step has no `apply`.
        case keep
        /// Run `login` again, then resend the request as another attempt of the step.
        case logInAgainAndResend
        /// The resend was refused too: the step fails and says so.
        case refusedAgain(status: Int)
    }

    let refreshOn: [Int]
    /// The step's one refresh has happened.
    private(set) var spent = false

    init(refreshOn: [Int]) {
        self.refreshOn = refreshOn
    }

    mutating func decide(afterStatus status: Int?) -> Decision {
        guard let status, refreshOn.contains(status) else { return .keep }
        if spent { return .refusedAgain(status: status) }
        spent = true
        return .logInAgainAndResend
    }

    /// The failure a step gets when its resend is refused too.
    func refusal(status: Int, at location: SourceRange?) -> ExpectationResult {
        ExpectationResult(location: location, subject: "auth",
                          message: "the refreshed credentials were refused too: \(status) again after logging in again",
                          expected: .words("a status not in refresh_on \(refreshOn)"), actual: .value(.number(JSONNumber(status))))
    }
}
