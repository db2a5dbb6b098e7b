import CCurl
import Foundation

// MARK: - Callback entry points (driver thread)

extension CurlTransfer {
    /// What the write callback returns: the count taken, or `CURL_WRITEFUNC_PAUSE`.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch request.responseBody {
        case .memory:
            return receive(bytes) ? bytes.count : 0
        case .file:
            guard let file = responseFile else { return 0 }
            guard let base = bytes.baseAddress else { return 0 }
            if fwrite(base, 1, bytes.count, file) != bytes.count {
                responseFileError = errno
                return 0
            }
            return bytes.count
        case .stream(let stream):
            return stream.offer(bytes) ? bytes.count : courier_writefunc_pause
        }
    }

    /// What the read callback returns for a streamed request body.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard case .stream(let stream) = request.body else { return courier_readfunc_abort }
        return stream.read(into: buffer) ?? courier_readfunc_pause
    }

    func progressChanged(downloadTotal: Int64, downloaded: Int64, uploadTotal: Int64, uploaded: Int64) {
        guard let progress else { return }
        var next = lastProgress
        // libcurl reports 0 for a total it does not know; counts only grow.
        next.downloaded = max(next.downloaded, downloaded)
        next.uploaded = max(next.uploaded, uploaded)
        if downloadTotal > 0 { next.downloadTotal = downloadTotal }
        if uploadTotal > 0 { next.uploadTotal = uploadTotal }
        guard next != lastProgress else { return }
        lastProgress = next
        progress.yield(next)
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if body.isEmpty, let h = handle {
            // One allocation for a body of known length instead of doubling up to it
            // (which briefly holds 1.5x the body), capped by the limit and by 1 GiB: the
            // length is the server's word, and `Content-Length: 9223372036854775807` under a
            // `--max-body-size` of exabytes must not ask for an allocation that cannot succeed.
            var declared: curl_off_t = -1
            _ = courier_easy_getinfo_off(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared)
            if declared > 0 { body.reserveCapacity(min(Int(declared), request.options.maxResponseBytes, 1 << 30)) }
        }
        if body.count + bytes.count > request.options.maxResponseBytes {
            exceededLimit = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Outgoing header bytes; libcurl passes a whole block per call, but a block
    /// split over several calls is put back together at its empty line.
    func receiveSentHeader(_ raw: UnsafeRawBufferPointer) {
        pendingSent.append(contentsOf: raw)
        if pendingSent.suffix(4).elementsEqual("\r\n\r\n".utf8) || pendingSent.suffix(2).elementsEqual("\n\n".utf8) {
            finishSentRequests()
        }
    }

    func finishSentRequests() {
        guard !pendingSent.isEmpty else { return }
        if let sent = HTTPSentRequest.parse(pendingSent[...]) { sentRequests.append(sent) }
        pendingSent.removeAll(keepingCapacity: true)
    }

    func receiveHeaderLine(_ raw: UnsafeRawBufferPointer) {
        var bytes = raw.assumingMemoryBound(to: UInt8.self)[...]
        while let last = bytes.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { bytes.removeLast() }
        if ReceivedHeaderBlock.isStatusLine(bytes) {
            var url: UnsafeMutablePointer<CChar>?
            if let h = handle { _ = courier_easy_getinfo_string(h, CURLINFO_EFFECTIVE_URL, &url) }
            // Most responses answer the URL asked for: reuse that string rather than copy libcurl's.
            let answered = url.map { url in request.url.withCString { strcmp($0, url) == 0 } ? request.url : String(cString: url) }
            if !headerBlocks.isEmpty { headerBlocks[headerBlocks.count - 1].headers = HTTPHeaders(receivingFields) }
            receivingFields.removeAll(keepingCapacity: true)
            receivingFields.reserveCapacity(16)
            headerBlocks.append(ReceivedHeaderBlock(statusLine: bytes, url: answered ?? request.url))
        } else if !bytes.isEmpty, !headerBlocks.isEmpty {
            guard let field = ReceivedHeaderBlock.field(bytes) else { return }
            if request.options.cookieJar != nil, field.name.caseInsensitiveEquals("set-cookie") {
                // From now on libcurl may send this jar's cookies on its own: record what it sends.
                request.options.cookieJar?.mayHoldCookies.store(true, ordering: .relaxed)
            }
            receivingFields.append(HTTPHeaders.Field(name: field.name, value: field.value))
        }
    }
}

// MARK: - C callbacks

/// The C functions libcurl calls (set up by `configure`); their userdata is the transfer, unretained.
///
/// The hot ones (write, header) reach the transfer through `_withUnsafeGuaranteedRef`, which
/// retains and releases nothing: the driver holds the transfer (`active`) for as long as
/// libcurl may call back, and a retain/release pair per header line and body chunk showed in profiles.
enum CurlCallbacks {
    static let write: courier_data_callback = { buffer, size, count, context in
        guard let context, let buffer else { return 0 }
        // Returning less than the length makes libcurl abort with CURLE_WRITE_ERROR.
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { transfer in
            transfer.write(UnsafeRawBufferPointer(start: buffer, count: size * count))
        }
    }

    static let read: courier_data_callback = { buffer, size, count, context in
        guard let context, let buffer else { return courier_readfunc_abort }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
    }

    static let progress: courier_xferinfo_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        transfer.progressChanged(downloadTotal: Int64(downloadTotal), downloaded: Int64(downloaded),
                                 uploadTotal: Int64(uploadTotal), uploaded: Int64(uploaded))
        return 0
    }

    static let header: courier_data_callback = { buffer, size, count, context in
        guard let context, let buffer else { return 0 }
        let length = size * count
        Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { transfer in
            transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length))
        }
        return length
    }

    static let debug: courier_debug_callback = { _, type, data, size, context in
        // Only outgoing header blocks; text, bodies and TLS records are ignored (and cost one call).
        guard type == CURLINFO_HEADER_OUT, let context, let data else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        transfer.receiveSentHeader(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
