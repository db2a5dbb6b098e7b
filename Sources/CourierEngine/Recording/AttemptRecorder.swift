import CourierHTTP
import CourierResults
import CourierSecrets

/// Turns what the transport gave (live `HTTPRequest`/`HTTPResponse` values with
/// whole bodies) into the plain records a result keeps: masked with the run's
/// policy as it is when the attempt ends, bodies cut to ``BodyRecord/limit``.
///
/// Masking here does not replace masking at the door: a secret registered later
/// (a later step's capture) is masked by every writer. It keeps results free of
/// the plaintext that was known, and bounds their size, whatever holds them.
struct AttemptRecorder {
    let policy: MaskingPolicy

    func request(_ request: HTTPRequest, sent: [HTTPSentRequest]) -> RequestRecord {
        RequestRecord(method: request.method, url: policy.mask(request.url), headers: headers(request.headers),
                      body: body(of: request.body), proxyConnects: sent.filter(Self.isProxyConnect).map(self.sent))
    }

    /// The redirect hops and the final response, each with the request header block
    /// libcurl sent for it when that was recorded.
    func exchanges(_ response: HTTPResponse) -> (redirects: [ExchangeRecord], response: ResponseRecord) {
        let blocks = hopBlocks(response.sentRequests, hops: response.redirects.count + 1)
        let redirects = response.redirects.enumerated().map { index, hop in
            ExchangeRecord(url: policy.mask(hop.url), sent: blocks[index], status: hop.status, headers: headers(hop.headers))
        }
        let final = ResponseRecord(
            url: policy.mask(response.effectiveURL), sent: blocks[response.redirects.count], status: response.status,
            httpVersion: response.httpVersion, headers: headers(response.headers),
            body: BodyRecorder.record(response.body, charset: response.charset, policy: policy),
            timings: timings(response.timings), reusedConnection: response.reusedConnection)
        return (redirects, final)
    }

    /// In the engine's words (the workflow keys and flags involved, see ``TransportErrorText``).
    func error(_ error: HTTPError) -> TransportErrorRecord {
        let text = TransportErrorText.describe(error)
        return TransportErrorRecord(kind: error.kind.description, curlCode: error.curlCode, message: policy.mask(text.message),
                                    hint: text.hint.map(policy.mask))
    }

    // MARK: - Pieces

    /// One block per hop, aligned from the last: a hop answered with `100 Continue`
    /// or an auth challenge sent its request twice, and the later one is what the
    /// hop's response answered. Proxy `CONNECT` blocks are the request's, not a hop's.
    private func hopBlocks(_ sent: [HTTPSentRequest], hops: Int) -> [SentRequestRecord?] {
        let requests = sent.filter { !Self.isProxyConnect($0) }
        var blocks = [SentRequestRecord?](repeating: nil, count: hops)
        guard requests.count >= hops else { return blocks }
        for (index, block) in requests.suffix(hops).enumerated() { blocks[index] = self.sent(block) }
        return blocks
    }

    /// `HTTPSentRequest.isProxyConnect` without making a string of the method.
    private static func isProxyConnect(_ block: HTTPSentRequest) -> Bool {
        block.requestLine.utf8.starts(with: "CONNECT ".utf8)
    }

    private func sent(_ block: HTTPSentRequest) -> SentRequestRecord {
        SentRequestRecord(requestLine: policy.mask(block.requestLine), headers: headers(block.headers))
    }

    /// Credential headers keep their scheme only (`Bearer ***`), whatever their length;
    /// every other value is masked with the policy.
    private func headers(_ headers: HTTPHeaders) -> [HeaderField] {
        // Over the fields themselves, credentials told by their name first: most fields
        // are neither credentials nor hold a secret, and are then recorded as they are.
        let masking = !policy.isEmpty
        return headers.fields.map { field in
            guard CredentialHeaders.isCredential(field.name) else {
                return HeaderField(name: field.name, value: masking ? policy.mask(field.value) : field.value)
            }
            return HeaderField(name: field.name, value: policy.mask(CredentialHeaders.shown(HeaderField(name: field.name, value: field.value))))
        }
    }

    private func body(of body: HTTPRequestBody) -> BodyRecord? {
        switch body {
        case .none:
            return nil
        case .bytes(let bytes):
            return BodyRecorder.record(bytes, charset: nil, policy: policy)
        case .file(let path):
            return BodyRecord(kind: .file, file: path)
        case .multipart(let parts):
            let records = parts.map { part -> PartRecord in
                switch part.content {
                case .value(let value):
                    let cut = policy.maskThenCut(value, limit: BodyRecord.limit)
                    return PartRecord(name: part.name, value: cut.text, filename: part.filename, contentType: part.contentType)
                case .file(let path):
                    return PartRecord(name: part.name, file: path, filename: part.filename, contentType: part.contentType)
                case .data(let bytes):
                    return PartRecord(name: part.name, bytes: bytes.count, filename: part.filename, contentType: part.contentType)
                }
            }
            return BodyRecord(kind: .multipart, parts: records)
        case .stream(let stream):
            return BodyRecord(kind: .stream, totalBytes: Int(stream.length ?? 0))
        }
    }

    private func timings(_ timings: HTTPTimings) -> TimingsRecord {
        var record = TimingsRecord()
        record.nameLookup = timings.nameLookup
        record.connect = timings.connect
        record.tls = timings.tls
        record.preTransfer = timings.preTransfer
        record.firstByte = timings.firstByte
        record.total = timings.total
        record.redirect = timings.redirect
        return record
    }
}

extension AttemptRecorder {
    /// The whole record of one attempt: request, hops, response or error, checks, times,
    /// and with `--curl` the command reproducing it.
    func attempt(_ request: HTTPRequest, outcome: Result<HTTPResponse, HTTPError>, expectations: [ExpectationResult],
                 startedAt: Timestamp, startMicroseconds: Int, durationMicroseconds: Int, curl: String? = nil) -> Attempt {
        let attempt: Attempt
        switch outcome {
        case .success(let response):
            let (redirects, final) = exchanges(response)
            attempt = Attempt(startedAt: startedAt, startMicroseconds: startMicroseconds, durationMicroseconds: durationMicroseconds,
                              request: self.request(request, sent: response.sentRequests), redirects: redirects, response: final,
                              expectations: expectations)
        case .failure(let failure):
            attempt = Attempt(startedAt: startedAt, startMicroseconds: startMicroseconds, durationMicroseconds: durationMicroseconds,
                              request: self.request(request, sent: failure.sentRequests), error: error(failure),
                              expectations: expectations)
        }
        // Returned as made when there is no command (a record set in a `var` and returned was copied).
        guard let curl else { return attempt }
        var withCommand = attempt
        withCommand.curl = curl
        return withCommand
    }
}
