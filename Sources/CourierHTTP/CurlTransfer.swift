import CCurl
import Foundation
import Synchronization

/// The state of one request while libcurl works on it.
///
/// Owns everything libcurl borrows during the transfer (header list, MIME
/// structure, error buffer, upload file) and collects the response. Its parts:
/// setting up the handle (`CurlTransfer+Setup`), the C callbacks and what they collect
/// (`CurlTransfer+Callbacks`, `ReceivedHeaderBlock`), and the response or error built when
/// libcurl is done (`CurlTransfer+Result`).
final class CurlTransfer: @unchecked Sendable {
    // @unchecked: `continuation` is written by the submitting task before the
    // transfer is put in the driver's mutex-guarded inbox; from then on every
    // other field is read and written by the driver thread alone.
    // `cancelRequested` is atomic because any task may set it.

    let request: HTTPRequest
    /// Unchecked: resumed exactly once, by `CurlDriver.finish` (which clears it) or by the
    /// submitter when the driver refused the transfer. A checked one allocated a canary per request.
    var continuation: UnsafeContinuation<Result<HTTPResponse, HTTPError>, Never>?
    let cancelRequested = Atomic<Bool>(false)
    /// Where progress goes, when the request asked for it (set before submitting).
    var progress: AsyncStream<HTTPProgress>.Continuation?

    /// The easy handle while the transfer runs.
    var handle: UnsafeMutableRawPointer?
    // What libcurl borrows while the transfer runs: set up by `configure` (CurlTransfer+Setup),
    // freed by `deinit`.
    var headerList: UnsafeMutablePointer<curl_slist>?
    var mime: OpaquePointer?
    var uploadFile: UnsafeMutablePointer<FILE>?
    /// The jar's cookies this transfer sends alone (`onlyCookies`), given back when it ends.
    var borrowedCookies: BorrowedCookies?
    /// The file a ``HTTPResponseBodyDestination/file(path:)`` body is written to.
    var responseFile: UnsafeMutablePointer<FILE>?
    /// `errno` of a failed write to `responseFile`.
    var responseFileError: Int32?
    var lastProgress = HTTPProgress()
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    // MARK: - What the callbacks collect (CurlTransfer+Callbacks)

    // `@exclusivity(unchecked)`: these are touched by the driver thread alone, once per
    // header line or body chunk; the dynamic exclusivity checks cost more than the work.
    @exclusivity(unchecked) var body: [UInt8] = []
    var exceededLimit = false
    /// Header blocks, one per response received (redirects, `100 Continue`), parsed
    /// line by line as libcurl hands them over: keeping the lines as strings and
    /// parsing them afterwards cost a tenth of all the instructions of a small request.
    @exclusivity(unchecked) var headerBlocks: [ReceivedHeaderBlock] = []
    /// The fields of the last block in `headerBlocks`, still arriving: appended here, not
    /// through `headerBlocks[last].headers`, which copied the block's fields on every line.
    @exclusivity(unchecked) var receivingFields: [HTTPHeaders.Field] = []

    /// Every header block received, the last one's fields included: they move into it once
    /// the transfer is over (copying the list of blocks to set them showed in profiles).
    /// Called again, it returns the same blocks.
    func finishedBlocks() -> [ReceivedHeaderBlock] {
        if !receivingFields.isEmpty, !headerBlocks.isEmpty {
            headerBlocks[headerBlocks.count - 1].headers = HTTPHeaders(receivingFields)
            receivingFields = []
        }
        return headerBlocks
    }
    /// Request header blocks libcurl sent (debug callback), one per hop; the
    /// bytes of a block not yet finished by its empty line wait in `pendingSent`.
    var sentRequests: [HTTPSentRequest] = []
    var pendingSent: [UInt8] = []

    init(request: HTTPRequest) {
        self.request = request
        errorBuffer.initialize(to: 0)
    }

    deinit {
        if let headerList { courier_slist_free_all(headerList) }
        if let mime { courier_mime_free(mime) }
        if let uploadFile { fclose(uploadFile) }
        if let responseFile { fclose(responseFile) }
        errorBuffer.deallocate()
    }


    /// Closes the response file, flushing it: the error when a write failed.
    @discardableResult
    func closeResponseFile() -> HTTPError? {
        guard let file = responseFile, case .file(let path) = request.responseBody else { return nil }
        responseFile = nil
        var failure = responseFileError
        if fclose(file) != 0 && failure == nil { failure = errno }
        guard let failure else { return nil }
        return HTTPError(kind: .fileUnwritable,
                         message: "cannot write the response body to '\(path)': \(String(cString: strerror(failure)).lowercased())",
                         sentRequests: sentRequests, path: path)
    }

    /// The transfer is over (done, failed or aborted): streams and progress learn it.
    func ended(with result: Result<HTTPResponse, HTTPError>) {
        let error: HTTPError? = switch result {
        case .success: nil
        case .failure(let error): error
        }
        if case .stream(let stream) = request.responseBody { stream.end(error.map { .failure($0) } ?? .success(())) }
        if case .stream(let stream) = request.body { stream.end(error) }
        progress?.finish()
        progress = nil
    }

}
