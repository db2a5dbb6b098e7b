/// One try at a step's request: what was sent, every hop, what came back, and
/// every expectation and capture checked against it.
///
/// Everything is recorded as plain values, masked with the run's policy and cut
/// at record time (``BodyRecord``), so a run of many large responses holds a
/// bounded amount per attempt whatever `--jobs` runs at once.
package struct Attempt: Sendable, Codable, Equatable {
    /// When the attempt started (wall clock).
    package var startedAt: Timestamp
    /// When the attempt started, relative to the start of the run.
    package var startMicroseconds: Int
    package var durationMicroseconds: Int
    /// The request as Courier built it (`sent` on each hop says what libcurl put on the wire).
    package var request: RequestRecord
    /// One record per redirect response that led to `response`, oldest first.
    package var redirects: [ExchangeRecord]
    /// The final response; nil when the transfer failed (`error`).
    package var response: ResponseRecord?
    package var error: TransportErrorRecord?
    /// Every expectation and capture checked, in order, passed ones too.
    package var expectations: [ExpectationResult]
    /// Set when another attempt followed: why, and the wait before it.
    package var retry: AttemptRetry?
    /// With `--curl`: a `curl` command reproducing the request, secrets as shell
    /// variables (`$COURIER_SECRET_TOKEN`) named on a `# export` line before it.
    package var curl: String?
    /// Why no attempt followed this one although the budget allowed more: `abort_if` held
    /// (``AttemptRetry/abortIfHeld``). Nil when the budget ran out or nothing was retried.
    package var stopped: String? = nil

    /// The expectations and captures that did not hold.
    package var failures: [ExpectationResult] { expectations.filter(\.failed) }
}

extension Attempt {
    // In an extension, so the struct keeps its memberwise initializer: assigning each
    // property in an initializer of its own built the record in a temporary and copied it
    // out (a retain and a release of every string and array of an attempt, per attempt).
    package init(startedAt: Timestamp = .zero, startMicroseconds: Int = 0, durationMicroseconds: Int = 0,
                 request: RequestRecord, redirects: [ExchangeRecord] = [], response: ResponseRecord? = nil,
                 error: TransportErrorRecord? = nil, expectations: [ExpectationResult] = [], retry: AttemptRetry? = nil) {
        self.init(startedAt: startedAt, startMicroseconds: startMicroseconds, durationMicroseconds: durationMicroseconds,
                  request: request, redirects: redirects, response: response, error: error, expectations: expectations,
                  retry: retry, curl: nil)
    }
}

/// A header field as sent or received; order and repeats are kept.
package struct HeaderField: Sendable, Codable, Equatable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension [HeaderField] {
    /// The first value of `name`, compared case-insensitively (ASCII).
    package func first(named name: String) -> String? {
        first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The request Courier built for an attempt.
package struct RequestRecord: Sendable, Codable, Equatable {
    package var url: String
    package var method: String
    /// The headers Courier set, in order (libcurl adds its own: see each hop's `sent`).
    package var headers: [HeaderField]
    package var body: BodyRecord?
    /// A proxy's `CONNECT` blocks, when the request went through a tunnel.
    package var proxyConnects: [SentRequestRecord]
}

extension RequestRecord {
    // Here, not in the struct, so that the struct keeps its memberwise initializer (its
    // properties are declared in another order than this one's parameters, or the two
    // would clash): assigning the properties one by one was compiled to build the value
    // in a temporary and copy it out, a retain and a release of everything it holds.
    package init(method: String, url: String, headers: [HeaderField] = [], body: BodyRecord? = nil,
                 proxyConnects: [SentRequestRecord] = []) {
        self.init(url: url, method: method, headers: headers, body: body, proxyConnects: proxyConnects)
    }
}

/// A request header block as libcurl sent it (with its own `Host`, `User-Agent`,
/// `Accept-Encoding`, `Cookie` from the jar, Basic credentials from a URL).
package struct SentRequestRecord: Sendable, Codable, Equatable {
    /// `GET /echo HTTP/1.1`.
    package var requestLine: String
    package var headers: [HeaderField]

    package init(requestLine: String, headers: [HeaderField]) {
        self.requestLine = requestLine
        self.headers = headers
    }
}

/// One redirect hop: the URL asked, what was sent there, and the redirect response.
package struct ExchangeRecord: Sendable, Codable, Equatable {
    package var url: String
    /// What libcurl sent to `url`; nil when it was not recorded.
    package var sent: SentRequestRecord?
    package var status: Int
    package var headers: [HeaderField]

    package init(url: String, sent: SentRequestRecord? = nil, status: Int, headers: [HeaderField]) {
        self.url = url
        self.sent = sent
        self.status = status
        self.headers = headers
    }
}

/// The final response of an attempt.
package struct ResponseRecord: Sendable, Codable, Equatable {
    /// The URL of the last hop.
    package var url: String
    package var status: Int
    /// What libcurl sent to `url`; nil when it was not recorded.
    package var sent: SentRequestRecord?
    /// `"1.1"`, `"2"`, …
    package var httpVersion: String
    package var headers: [HeaderField]
    package var body: BodyRecord
    package var timings: TimingsRecord
    /// Whether an existing connection was reused (no new connect, no TLS handshake).
    package var reusedConnection: Bool
}

extension ResponseRecord {
    // Here, not in the struct, so that the struct keeps its memberwise initializer (its
    // properties are declared in another order than this one's parameters, or the two
    // would clash): assigning the properties one by one was compiled to build the value
    // in a temporary and copy it out, a retain and a release of everything it holds.
    package init(url: String, sent: SentRequestRecord? = nil, status: Int, httpVersion: String = "1.1",
                 headers: [HeaderField] = [], body: BodyRecord = .empty, timings: TimingsRecord = TimingsRecord(),
                 reusedConnection: Bool = false) {
        self.init(url: url, status: status, sent: sent, httpVersion: httpVersion, headers: headers, body: body, timings: timings,
                  reusedConnection: reusedConnection)
    }
}

/// Phase times in microseconds, each from the start of the request (libcurl's `*_TIME_T`).
package struct TimingsRecord: Sendable, Codable, Equatable {
    package var nameLookup = 0
    package var connect = 0
    /// TLS handshake done; 0 for plain HTTP.
    package var tls = 0
    package var preTransfer = 0
    package var firstByte = 0
    package var total = 0
    /// Time spent following redirects.
    package var redirect = 0

    package init() {}
}

/// Why a transfer failed.
package struct TransportErrorRecord: Sendable, Codable, Equatable {
    /// `connection_refused`, `timeout`, … (the step's error type).
    package var kind: String
    /// libcurl's error code; 0 when the error is Courier's own.
    package var curlCode: Int
    package var message: String
    package var hint: String?

    package init(kind: String, curlCode: Int = 0, message: String, hint: String? = nil) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
        self.hint = hint
    }

    /// `message (curl error N); hint`.
    package var description: String {
        var text = message
        if curlCode != 0 { text += " (curl error \(curlCode))" }
        if let hint { text += "; \(hint)" }
        return text
    }
}
