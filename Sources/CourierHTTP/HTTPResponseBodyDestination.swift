/// Where a response body goes as it arrives.
public enum HTTPResponseBodyDestination: Sendable {
    /// Kept in memory as ``HTTPResponse/body``, up to ``HTTPRequestOptions/maxResponseBytes``.
    case memory
    /// Written to the file at `path` as it arrives (created or truncated when the
    /// transfer starts), so memory stays bounded whatever the size; the body of every
    /// status is written, the final hop's only. ``HTTPResponse/body`` is then empty and
    /// ``HTTPRequestOptions/maxResponseBytes`` does not apply.
    case file(path: String)
    /// Handed to `stream` chunk by chunk (see ``HTTPResponseBodyStream``); the
    /// transfer pauses while its buffer is full. ``HTTPResponse/body`` is then empty.
    case stream(HTTPResponseBodyStream)
}
