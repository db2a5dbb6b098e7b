import CourierHTTP
import CourierResults
import CourierSecrets

/// Makes an attempt's plain record when the attempt ends: masked with the registry as it is
/// then (this attempt's secret captures included), bodies cut, and under `--curl` with the
/// command that reproduces it (or why there is none).
struct AttemptRecording {
    let secrets: SecretRegistry
    /// `--curl`.
    let curlCommands: Bool
    let clock: RunClock

    /// A request that was sent, with what came of it; `start` is the attempt's start on the run's clock.
    func attempt(_ request: HTTPRequest, _ outcome: Result<HTTPResponse, HTTPError>,
                 expectations: [ExpectationResult], start: Int) -> Attempt {
        let policy = secrets.policy
        let startedAt = clock.timestamp(at: start), duration = clock.elapsedMicroseconds(since: start)
        var curl: String? = nil
        if curlCommands {
            // The block libcurl sent holds the jar's `Cookie` (recorded whenever the jar may hold one).
            // A request Courier refused (`invalid_header`, …) gets its reason, no command.
            curl = switch outcome {
            case .success(let response): CurlCommand(policy: policy).render(request, sent: response.sentRequests)
            case .failure(let error): CurlCommand(policy: policy).render(request, failedWith: error)
            }
        }
        // The command goes in as the record is made: setting it afterwards copied the record.
        return AttemptRecorder(policy: policy).attempt(
            request, outcome: outcome, expectations: expectations, startedAt: startedAt,
            startMicroseconds: start, durationMicroseconds: duration, curl: curl)
    }

    /// A request built and not sent (a dry run): the request alone.
    func unsent(_ request: HTTPRequest) -> Attempt {
        let policy = secrets.policy
        var record = Attempt(startedAt: clock.timestamp(at: clock.elapsedMicroseconds()),
                             request: AttemptRecorder(policy: policy).request(request, sent: []))
        // Digest has no header until libcurl answers a challenge: the dry run shows the one it
        // would send, masked as a sent one is, so the preview says which credentials go.
        if case .digest? = request.options.authentication {
            record.request.headers.append(HeaderField(name: "Authorization", value: "Digest \(MaskingPolicy.mask)"))
        }
        if curlCommands { record.curl = CurlCommand(policy: policy).render(request) }
        return record
    }
}
