/// How far a transfer has come, in bytes.
///
/// Totals are nil while unknown (no `Content-Length`, a streamed upload of unknown
/// length). Values never decrease within one transfer; after redirects libcurl
/// counts the last hop's body.
public struct HTTPProgress: Sendable, Equatable {
    /// Request body bytes sent so far.
    public var uploaded: Int64
    /// The request body's size, when known.
    public var uploadTotal: Int64?
    /// Response body bytes received so far (as sent, before decompression).
    public var downloaded: Int64
    /// The response body's announced size, when known.
    public var downloadTotal: Int64?

    public init(uploaded: Int64 = 0, uploadTotal: Int64? = nil, downloaded: Int64 = 0, downloadTotal: Int64? = nil) {
        self.uploaded = uploaded
        self.uploadTotal = uploadTotal
        self.downloaded = downloaded
        self.downloadTotal = downloadTotal
    }

    /// Download progress from 0 to 1, nil while the total is unknown.
    public var downloadFraction: Double? {
        guard let total = downloadTotal, total > 0 else { return nil }
        return min(1, Double(downloaded) / Double(total))
    }

    /// Upload progress from 0 to 1, nil while the total is unknown.
    public var uploadFraction: Double? {
        guard let total = uploadTotal, total > 0 else { return nil }
        return min(1, Double(uploaded) / Double(total))
    }
}

/// Receives progress updates of one request.
///
/// Called from a task of its own, never on the thread that drives transfers, one
/// call at a time and in order; updates that arrive while a call is still running
/// are coalesced to the newest. The last call, made before the request's `send`
/// returns, carries the final counts.
public typealias HTTPProgressHandler = @Sendable (HTTPProgress) -> Void
