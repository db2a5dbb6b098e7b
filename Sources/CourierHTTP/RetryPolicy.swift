import Foundation

/// When and how long to wait before sending a request again.
///
/// The one retry policy of Courier: the workflow engine builds it from `retry:` and
/// `--retry N`, and a Swift program using `HTTPClient` uses it as it is. It knows HTTP
/// only (network failures, timeouts, statuses, `Retry-After`); polling on expectations
/// is the engine's business, on top of it.
///
///     let policy = RetryPolicy(attempts: 4, delay: .milliseconds(200))
///     var random = SeededRandomNumberGenerator(seed: 7)
///     switch policy.decide(after: .status(503), attempt: 1, elapsed: .zero, retryAfter: "2", using: &random) {
///     case .retry(let wait): try await Task.sleep(for: wait.duration)
///     case .stop(let reason): print(reason)
///     }
public struct RetryPolicy: Sendable, Hashable {
    /// How the wait grows from one retry to the next (before `maxDelay` and jitter).
    public enum Backoff: Sendable, Hashable {
        /// Every wait is `delay`.
        case constant
        /// The n-th wait is `delay × n`.
        case linear
        /// The n-th wait is `delay × factor^(n−1)`.
        case exponential(factor: Double)
    }

    /// What makes a failed attempt worth another try.
    public enum Condition: Sendable, Hashable {
        /// The connection could not be made or broke (refused, unknown host, closed early).
        case network
        /// The request timed out.
        case timeout
        /// A response with this status.
        case status(Int)
        /// A response whose status is in this class: `statusClass(5)` is any 5xx.
        case statusClass(Int)
    }

    /// What an attempt came to, as far as retrying is concerned.
    public enum Failure: Sendable, Hashable {
        /// A network failure; `requestSent` is false when nothing reached the server
        /// (connection refused, unknown host), so even a POST may be sent again safely.
        case network(requestSent: Bool)
        case timeout
        /// A response came back with this status.
        case status(Int)

        /// What a transport error comes to, or nil when another try would fail the same way
        /// (cancelled, TLS, an invalid URL, a file that cannot be read…). One mapping for the
        /// runner and the library.
        public init?(_ kind: HTTPError.Kind) {
            switch kind {
            case .timeout: self = .timeout
            case .connectionRefused, .hostNotFound: self = .network(requestSent: false)
            case .connectionClosed: self = .network(requestSent: true)
            default: return nil
            }
        }
    }

    /// Total tries, the first included: 1 never retries.
    public var attempts: Int
    /// The first wait.
    public var delay: Duration
    public var backoff: Backoff
    /// No wait is longer, `Retry-After` included.
    public var maxDelay: Duration
    /// Full jitter: each wait is drawn uniformly between zero and the backoff's value,
    /// so many clients retrying at once spread out. `Retry-After` waits are never jittered.
    public var jitter: Bool
    /// The longest time from the first attempt's start to the start of the last one:
    /// a retry whose wait would end after it is not made. Nil: no deadline.
    public var deadline: Duration?
    /// Which failures are retried.
    public var conditions: [Condition]

    /// network, timeout, 429, 502, 503, 504.
    public static let defaultConditions: [Condition] = [.network, .timeout, .status(429), .status(502), .status(503), .status(504)]

    /// The statuses whose `Retry-After` header is honoured.
    public static let retryAfterStatuses: Set<Int> = [429, 503]

    public init(attempts: Int = 1, delay: Duration = .milliseconds(200), backoff: Backoff = .exponential(factor: 2),
                maxDelay: Duration = .seconds(10), jitter: Bool = true, deadline: Duration? = nil,
                conditions: [Condition] = RetryPolicy.defaultConditions) {
        self.attempts = attempts
        self.delay = delay
        self.backoff = backoff
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.deadline = deadline
        self.conditions = conditions
    }

    /// Whether `failure` is one of the policy's conditions.
    public func retries(_ failure: Failure) -> Bool {
        conditions.contains { condition in
            switch (condition, failure) {
            case (.network, .network), (.timeout, .timeout): true
            case (.status(let code), .status(let status)): code == status
            case (.statusClass(let digit), .status(let status)): status / 100 == digit
            default: false
            }
        }
    }

    /// The wait before retry number `retry` (1 for the wait after the first attempt),
    /// by the backoff alone, capped at `maxDelay`; no jitter.
    public func backoffDelay(beforeRetry retry: Int) -> Duration {
        let n = Double(max(1, retry))
        let multiplier: Double
        switch backoff {
        case .constant: multiplier = 1
        case .linear: multiplier = n
        case .exponential(let factor): multiplier = pow(factor, n - 1)
        }
        let seconds = Self.seconds(delay) * multiplier
        let cap = Self.seconds(maxDelay)
        // `factor^n` overflows to infinity long before a wait matters: the cap decides then.
        guard seconds.isFinite, seconds < cap else { return maxDelay }
        return max(.zero, Self.duration(seconds: seconds))
    }

    /// The backoff's wait with full jitter when `jitter` is on: uniform in [0, backoff].
    public func jitteredDelay(beforeRetry retry: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let full = backoffDelay(beforeRetry: retry)
        guard jitter, full > .zero else { return full }
        let nanoseconds = Self.nanoseconds(full)
        return .nanoseconds(Int64.random(in: 0...nanoseconds, using: &random))
    }

    /// Why a wait is as long as it is.
    public enum WaitSource: Sendable, Hashable {
        /// The backoff (with jitter if on).
        case backoff
        /// The server's `Retry-After`; `requested` is what it asked for, more than the
        /// wait when `maxDelay` capped it.
        case retryAfter(requested: Duration)
    }

    /// Another attempt after `duration`.
    public struct Wait: Sendable, Hashable {
        public var duration: Duration
        public var source: WaitSource

        public init(duration: Duration, source: WaitSource) {
            self.duration = duration
            self.source = source
        }

        /// The server asked for a longer wait than `maxDelay` allows.
        public var wasCapped: Bool {
            if case .retryAfter(let requested) = source { return requested > duration }
            return false
        }
    }

    public enum Decision: Sendable, Hashable {
        case retry(Wait)
        /// No more attempts; `reason` says why, for a log line.
        case stop(reason: String)
    }

    /// After attempt number `attempt` (1-based) failed with `failure`: stop, or wait and retry.
    ///
    /// - Parameters:
    ///   - elapsed: time since the first attempt started (for `deadline`).
    ///   - retryAfter: the response's `Retry-After` header, if any; honoured on 429 and 503.
    ///   - now: the current date, for a `Retry-After` written as an HTTP date.
    public func decide(after failure: Failure, attempt: Int, elapsed: Duration, retryAfter: String? = nil,
                       now: Date = Date(), using random: inout some RandomNumberGenerator) -> Decision {
        guard retries(failure) else { return .stop(reason: "not a retry condition") }
        return wait(after: failure, attempt: attempt, elapsed: elapsed, retryAfter: retryAfter, now: now, using: &random)
    }

    /// The wait after attempt `attempt`, whatever the failure (the engine also retries on
    /// conditions of its own, like failed expectations): stops when attempts run out or the
    /// deadline would pass.
    public func wait(after failure: Failure?, attempt: Int, elapsed: Duration, retryAfter: String? = nil,
                     now: Date = Date(), using random: inout some RandomNumberGenerator) -> Decision {
        guard attempt < attempts else {
            return .stop(reason: attempts == 1 ? "no retry configured" : "all \(attempts) attempts made")
        }
        var wait = Wait(duration: jitteredDelay(beforeRetry: attempt, using: &random), source: .backoff)
        if case .status(let status) = failure, Self.retryAfterStatuses.contains(status),
           let header = retryAfter, let requested = RetryAfter.parse(header, now: now) {
            wait = Wait(duration: min(requested, maxDelay), source: .retryAfter(requested: requested))
        }
        if let deadline, elapsed + wait.duration > deadline {
            return .stop(reason: "the next attempt would start after the \(RetryAfter.format(deadline)) deadline")
        }
        return .retry(wait)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole nanoseconds, saturating at `Int64.max` (292 years) for longer durations: a
    /// caller's `maxDelay` can be any `Duration`, and jitter must not trap on one.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflowed else { return seconds < 0 ? .min : .max }
        let (sum, carried) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return carried ? (seconds < 0 ? .min : .max) : sum
    }

    /// `seconds` as a duration, saturating at ±`Int64.max` nanoseconds (NaN is zero).
    static func duration(seconds: Double) -> Duration {
        let nanoseconds = (seconds * 1e9).rounded()
        guard !nanoseconds.isNaN else { return .zero }
        // 9.2e18 is below Int64.max; the doubles between it and 2^63 are saturated too.
        if nanoseconds >= 9.2e18 { return .nanoseconds(Int64.max) }
        if nanoseconds <= -9.2e18 { return .nanoseconds(Int64.min) }
        return .nanoseconds(Int64(nanoseconds))
    }
}

/// A small, fast generator with a seed: tests and `--seed`-like tools get the same
/// jitter every run. SplitMix64 (Steele, Lea, Flood 2014).
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension RetryPolicy {
    /// The methods that sending twice does what sending once does (RFC 9110 §9.2.2), in
    /// upper case: only these are sent again after the server may have seen them. One list
    /// for the runner's `--retry N` and the library's default retries.
    public static let idempotentMethods: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]

    /// Whether `method` (any case) is one of ``idempotentMethods``.
    public static func isIdempotent(_ method: String) -> Bool {
        idempotentMethods.contains(method.uppercased())
    }
}
