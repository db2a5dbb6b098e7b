import CCurl
import Foundation

// MARK: - The response or error, once libcurl is done (driver thread)

extension CurlTransfer {
    /// Builds the response (or error) once libcurl reports the transfer done.
    func result(code: CURLcode) -> Result<HTTPResponse, HTTPError> {
        guard let h = handle else {
            return .failure(HTTPError(kind: .transport, message: "transfer finished without a handle"))
        }
        finishSentRequests()
        reportFinalProgress(h)
        if let failure = closeResponseFile() { return .failure(failure) }
        if exceededLimit || code == CURLE_FILESIZE_EXCEEDED {
            let limit = request.options.maxResponseBytes
            var declared: curl_off_t = -1
            _ = courier_easy_getinfo_off(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared)
            let size = declared > limit ? " (Content-Length: \(declared))" : ""
            let message = "the response body is larger than \(ByteCount.format(limit))\(size)"
            return .failure(HTTPError(
                kind: .responseTooLarge, curlCode: Int(code.rawValue),
                wording: HTTPError.Wording { n in (message, HTTPError.responseTooLargeHint(limit, n)) },
                sentRequests: sentRequests, curlOption: "CURLOPT_MAXFILESIZE_LARGE"))
        }
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            var context = CurlFailureContext(connected: Self.connected(h, https: request.url.lowercased().hasPrefix("https:")),
                                             receivedResponse: !headerBlocks.isEmpty)
            if let last = finishedBlocks().last, (300..<400).contains(last.status) {
                context.redirectLocation = last.headers["Location"]
            }
            var error = HTTPError(curlCode: code, detail: detail, url: request.url, options: request.options, context: context)
            error.sentRequests = sentRequests
            return .failure(error)
        }

        var status = 0
        _ = courier_easy_getinfo_long(h, CURLINFO_RESPONSE_CODE, &status)
        var version = 0
        _ = courier_easy_getinfo_long(h, CURLINFO_HTTP_VERSION, &version)
        var connects = 0
        _ = courier_easy_getinfo_long(h, CURLINFO_NUM_CONNECTS, &connects)
        var effective: UnsafeMutablePointer<CChar>?
        _ = courier_easy_getinfo_string(h, CURLINFO_EFFECTIVE_URL, &effective)

        // 1xx blocks (100 Continue) precede the real response; drop them (when there are any).
        let blocks = finishedBlocks()
        let isAnswer = { (block: ReceivedHeaderBlock) in block.status >= 200 || block.status == 0 }
        var answered = blocks.allSatisfy(isAnswer) ? blocks : blocks.filter(isAnswer)
        // A Digest challenge libcurl answered on the same transfer is no redirect hop.
        if request.options.authentication != nil { answered = Self.droppingAnsweredChallenges(answered) }
        let finalHeaders = answered.last?.headers ?? HTTPHeaders()
        if let conflict = Self.conflictingContentLengths(finalHeaders) {
            // RFC 9112 §6.3: differing lengths make the message's end unknowable; libcurl
            // silently picks one, so the body may be cut or run into the next response.
            return .failure(HTTPError(
                kind: .badResponse,
                message: "the response has two different Content-Length headers (\(conflict))",
                hint: HTTPError.badResponseHint(host: HTTPError.host(of: request.url)), sentRequests: sentRequests))
        }
        // Each hop's URL as libcurl fetched it, not rebuilt from `Location` afterwards.
        let hops = answered.dropLast().map { HTTPRedirectHop(url: $0.url, status: $0.status, headers: $0.headers) }

        return .success(HTTPResponse(
            status: status,
            httpVersion: Self.versionName(version),
            headers: finalHeaders,
            body: body,
            // Most requests end where they began: that string is reused rather than copied from libcurl's.
            effectiveURL: effective.map { url in request.url.withCString { strcmp($0, url) == 0 } ? request.url : String(cString: url) }
                ?? request.url,
            timings: timings(h),
            redirects: hops,
            reusedConnection: connects == 0,
            sentRequests: sentRequests))
    }

    /// The blocks without each `401` that another block followed: libcurl sent the request
    /// again with `Authorization: Digest …` (a final `401` is the server's refusal, and stays).
    static func droppingAnsweredChallenges(_ blocks: [ReceivedHeaderBlock]) -> [ReceivedHeaderBlock] {
        blocks.indices.compactMap { index in
            blocks[index].status == 401 && index < blocks.count - 1 ? nil : blocks[index]
        }
    }

    /// Whether the transfer got as far as a usable connection.
    ///
    /// The connect (and TLS) times are 0 on a reused keep-alive connection, which was
    /// connected all along; the pre-transfer time and the request size are then set once
    /// the request is on its way, so a response timeout there is not taken for a connect one.
    private static func connected(_ h: UnsafeMutableRawPointer, https: Bool) -> Bool {
        var connectDone: curl_off_t = 0
        _ = courier_easy_getinfo_off(h, https ? CURLINFO_APPCONNECT_TIME_T : CURLINFO_CONNECT_TIME_T, &connectDone)
        var preTransfer: curl_off_t = 0
        _ = courier_easy_getinfo_off(h, CURLINFO_PRETRANSFER_TIME_T, &preTransfer)
        var requestSize = 0
        _ = courier_easy_getinfo_long(h, CURLINFO_REQUEST_SIZE, &requestSize)
        return connectDone > 0 || preTransfer > 0 || requestSize > 0
    }

    private func timings(_ h: UnsafeMutableRawPointer) -> HTTPTimings {
        func get(_ info: CURLINFO) -> Int {
            var value: curl_off_t = 0
            _ = courier_easy_getinfo_off(h, info, &value)
            return Int(value)
        }
        var t = HTTPTimings()
        t.nameLookup = get(CURLINFO_NAMELOOKUP_TIME_T)
        t.connect = get(CURLINFO_CONNECT_TIME_T)
        t.tls = get(CURLINFO_APPCONNECT_TIME_T)
        t.preTransfer = get(CURLINFO_PRETRANSFER_TIME_T)
        t.firstByte = get(CURLINFO_STARTTRANSFER_TIME_T)
        t.total = get(CURLINFO_TOTAL_TIME_T)
        t.redirect = get(CURLINFO_REDIRECT_TIME_T)
        return t
    }

    /// The differing values when a header block has `Content-Length`s that disagree.
    static func conflictingContentLengths(_ headers: HTTPHeaders) -> String? {
        // Every response passes through here on the driver thread: one plain value, the
        // usual case, costs a byte comparison of names and no allocation.
        var count = 0
        var listed = false
        for index in headers.indices where headers.fields[index].name.caseInsensitiveEquals("Content-Length") {
            count += 1
            if headers.fields[index].value.utf8.contains(UInt8(ascii: ",")) { listed = true }
        }
        if count < 2 && !listed { return nil }
        let fields = headers.filter { $0.name.caseInsensitiveEquals("Content-Length") }
        var values: [String] = []
        for field in fields {
            // One header may carry a list (`5, 5`): identical values are allowed.
            for value in field.value.split(separator: ",") {
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                if !values.contains(trimmed) { values.append(trimmed) }
            }
        }
        return values.count > 1 ? values.joined(separator: " and ") : nil
    }

    private static func versionName(_ code: Int) -> String {
        switch code {
        case Int(CURL_HTTP_VERSION_1_0): "1.0"
        case Int(CURL_HTTP_VERSION_2_0): "2"
        case 30: "3"
        default: "1.1"
        }
    }

    /// The final counts, with totals now known when the transfer succeeded.
    func reportFinalProgress(_ h: UnsafeMutableRawPointer) {
        guard let progress else { return }
        func get(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            _ = courier_easy_getinfo_off(h, info, &value)
            return Int64(value)
        }
        var final = lastProgress
        final.downloaded = max(final.downloaded, get(CURLINFO_SIZE_DOWNLOAD_T))
        final.uploaded = max(final.uploaded, get(CURLINFO_SIZE_UPLOAD_T))
        let declared = get(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
        final.downloadTotal = declared >= 0 ? declared : final.downloaded
        if final.uploadTotal == nil, final.uploaded > 0 { final.uploadTotal = final.uploaded }
        if final != lastProgress {
            lastProgress = final
            progress.yield(final)
        }
    }
}
