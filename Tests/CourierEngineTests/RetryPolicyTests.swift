import CourierHTTP
import CourierResults
import Foundation
import Testing

/// `CourierHTTP.RetryPolicy`: backoff arithmetic, seeded jitter, `Retry-After`, the deadline.
/// (Here because CourierHTTP has no test target of its own; nothing of the engine is used.)
@Suite struct RetryPolicyTests {
    /// The one mapping from transport errors to retry failures, read by the runner and the library.
    @Test func transportErrorsAsRetryFailures() {
        #expect(RetryPolicy.Failure(.timeout) == .timeout)
        #expect(RetryPolicy.Failure(.connectionRefused) == .network(requestSent: false))
        #expect(RetryPolicy.Failure(.hostNotFound) == .network(requestSent: false))
        #expect(RetryPolicy.Failure(.connectionClosed) == .network(requestSent: true))
        for kind: HTTPError.Kind in [.tls, .cancelled, .invalidURL, .fileUnreadable, .badResponse, .transport] {
            #expect(RetryPolicy.Failure(kind) == nil, "\(kind)")
        }
    }

    @Test("constant, linear and exponential backoff, capped at max_delay")
    func backoffArithmetic() {
        let constant = RetryPolicy(attempts: 5, delay: .milliseconds(200), backoff: .constant, jitter: false)
        #expect((1...4).map(constant.backoffDelay(beforeRetry:)) == Array(repeating: .milliseconds(200), count: 4))
        let linear = RetryPolicy(attempts: 5, delay: .milliseconds(200), backoff: .linear, jitter: false)
        #expect((1...4).map(linear.backoffDelay(beforeRetry:)) == [.milliseconds(200), .milliseconds(400), .milliseconds(600), .milliseconds(800)])
        let exponential = RetryPolicy(attempts: 8, delay: .milliseconds(200), backoff: .exponential(factor: 2), maxDelay: .seconds(1), jitter: false)
        #expect((1...5).map(exponential.backoffDelay(beforeRetry:)) == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
        let triple = RetryPolicy(delay: .seconds(1), backoff: .exponential(factor: 3), maxDelay: .seconds(60), jitter: false)
        #expect(triple.backoffDelay(beforeRetry: 3) == .seconds(9))
        // factor^n overflows to infinity: the cap decides, no crash.
        #expect(exponential.backoffDelay(beforeRetry: 5000) == .seconds(1))
    }

    @Test("full jitter: the same seed gives the same waits, each between 0 and the backoff")
    func seededJitter() {
        let policy = RetryPolicy(attempts: 10, delay: .seconds(1), backoff: .exponential(factor: 2), maxDelay: .seconds(10))
        func waits(seed: UInt64) -> [Duration] {
            var random = SeededRandomNumberGenerator(seed: seed)
            return (1...6).map { policy.jitteredDelay(beforeRetry: $0, using: &random) }
        }
        let first = waits(seed: 42)
        #expect(first == waits(seed: 42))
        #expect(first != waits(seed: 43))
        for (index, wait) in first.enumerated() {
            #expect(wait >= .zero && wait <= policy.backoffDelay(beforeRetry: index + 1), "\(wait)")
        }
        // Without jitter the wait is the backoff exactly.
        var random = SeededRandomNumberGenerator(seed: 42)
        var fixed = policy
        fixed.jitter = false
        #expect(fixed.jitteredDelay(beforeRetry: 3, using: &random) == .seconds(4))
    }

    @Test("Retry-After in seconds and as the three HTTP date forms; invalid values are ignored")
    func retryAfterForms() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:40 GMT", now: now) == .seconds(3))
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:47 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Sun Nov  6 08:50:37 1994", now: now) == .seconds(60))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero, "a date in the past: no wait")
        for invalid in ["", "-1", "1.5", "soon", "Sun, 32 Nov 1994 08:49:37 GMT", "06 Nov 1994", "1e3"] {
            #expect(RetryAfter.parse(invalid, now: now) == nil, "'\(invalid)'")
        }
    }

    @Test("Retry-After is honoured on 429 and 503 only, capped at max_delay, and says when it was capped")
    func retryAfterDecisions() {
        let policy = RetryPolicy(attempts: 3, delay: .milliseconds(100), maxDelay: .seconds(10), jitter: false)
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(policy.decide(after: .status(503), attempt: 1, elapsed: .zero, retryAfter: "2", using: &random)
                == .retry(.init(duration: .seconds(2), source: .retryAfter(requested: .seconds(2)))))
        let capped = policy.decide(after: .status(429), attempt: 1, elapsed: .zero, retryAfter: "30", using: &random)
        #expect(capped == .retry(.init(duration: .seconds(10), source: .retryAfter(requested: .seconds(30)))))
        if case .retry(let wait) = capped { #expect(wait.wasCapped) }
        // 502 with Retry-After: the backoff decides.
        #expect(policy.decide(after: .status(502), attempt: 1, elapsed: .zero, retryAfter: "5", using: &random)
                == .retry(.init(duration: .milliseconds(100), source: .backoff)))
        // An invalid Retry-After: the backoff decides.
        #expect(policy.decide(after: .status(503), attempt: 1, elapsed: .zero, retryAfter: "later", using: &random)
                == .retry(.init(duration: .milliseconds(100), source: .backoff)))
    }

    @Test("conditions: network, timeout, a status, a class; attempts run out")
    func conditionsAndAttempts() {
        let policy = RetryPolicy(attempts: 2, jitter: false, conditions: [.network, .timeout, .status(429), .statusClass(5)])
        #expect(policy.retries(.network(requestSent: true)) && policy.retries(.timeout))
        #expect(policy.retries(.status(429)) && policy.retries(.status(500)) && policy.retries(.status(599)))
        #expect(!policy.retries(.status(404)) && !policy.retries(.status(200)))
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(policy.decide(after: .status(404), attempt: 1, elapsed: .zero, using: &random) == .stop(reason: "not a retry condition"))
        #expect(policy.decide(after: .status(500), attempt: 2, elapsed: .zero, using: &random) == .stop(reason: "all 2 attempts made"))
        #expect(RetryPolicy().attempts == 1)
        #expect(RetryPolicy.defaultConditions == [.network, .timeout, .status(429), .status(502), .status(503), .status(504)])
    }

    @Test("the deadline: no retry whose wait would end after it")
    func deadline() {
        let policy = RetryPolicy(attempts: 10, delay: .seconds(1), backoff: .constant, jitter: false, deadline: .seconds(5))
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(policy.decide(after: .timeout, attempt: 3, elapsed: .seconds(4), using: &random)
                == .retry(.init(duration: .seconds(1), source: .backoff)))
        guard case .stop(let reason) = policy.decide(after: .timeout, attempt: 4, elapsed: .milliseconds(4001), using: &random) else {
            Issue.record("retried past the deadline")
            return
        }
        #expect(reason.contains("deadline"), "\(reason)")
    }

    @Test("Retry-After past 64-bit microseconds is capped at maxDelay and shown in whole seconds (9223372036855 trapped)",
          arguments: ["9223372036855", "9223372036854775807", "99999999999999999999999"])
    func hugeRetryAfter(header: String) {
        let policy = RetryPolicy(attempts: 2, delay: .milliseconds(1), maxDelay: .seconds(10))
        var random = SeededRandomNumberGenerator(seed: 1)
        guard case .retry(let wait) = policy.decide(after: .status(503), attempt: 1, elapsed: .zero, retryAfter: header, using: &random),
              case .retryAfter(let requested) = wait.source else {
            Issue.record("no Retry-After wait")
            return
        }
        #expect(wait.duration == .seconds(10) && wait.wasCapped)
        let retry = AttemptRetry(reason: "503", wait: wait.duration)
        #expect(retry.waitMicroseconds == 10_000_000)
        #expect(AttemptRetry.format(requested) == (header.count > 19 ? "9223372036854775807 s" : "\(header) s"))
    }

    @Test("a library caller's maxDelay past Int64 nanoseconds: jitter and backoff saturate (10000000000 s trapped)")
    func hugeMaxDelay() {
        let policy = RetryPolicy(attempts: 3, delay: .seconds(10_000_000_000), maxDelay: .seconds(10_000_000_000))
        var random = SeededRandomNumberGenerator(seed: 1)
        let wait = policy.jitteredDelay(beforeRetry: 1, using: &random)
        #expect(wait >= .zero && wait <= .nanoseconds(Int64.max))
        #expect(policy.backoffDelay(beforeRetry: 2) == .seconds(10_000_000_000))
        #expect(AttemptRetry(reason: "503", wait: .seconds(Int64.max)).waitMicroseconds == Int.max)
    }
}
