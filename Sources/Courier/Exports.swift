import CourierHTTP

// `import Courier` is all an app needs: the transport-level types it meets in the
// library's API (retry policy, transport protocol, requests and responses for mocks and
// custom transports) are re-exported under their own names. They are the very types the
// runner uses, so a `RetryPolicy` built for one works for the other.

/// When and how long to wait before sending a request again; see ``APIClient/Configuration/retry``.
public typealias RetryPolicy = CourierHTTP.RetryPolicy
/// A seeded random source, for reproducible retry jitter in tests.
public typealias SeededRandomNumberGenerator = CourierHTTP.SeededRandomNumberGenerator
/// Something that sends HTTP requests: the libcurl client, ``MockTransport``, or your own.
public typealias HTTPTransport = CourierHTTP.HTTPTransport
/// A fully resolved HTTP request, as a transport receives it.
public typealias HTTPRequest = CourierHTTP.HTTPRequest
/// What an ``HTTPRequest`` carries.
public typealias HTTPRequestBody = CourierHTTP.HTTPRequestBody
/// Transport settings of one request (timeouts, TLS, redirects).
public typealias HTTPRequestOptions = CourierHTTP.HTTPRequestOptions
/// One part of a `multipart/form-data` body, as a transport receives it.
public typealias MultipartPart = CourierHTTP.MultipartPart
/// Where a response body goes (memory or a file).
public typealias HTTPResponseBodyDestination = CourierHTTP.HTTPResponseBodyDestination
/// A response as a transport returns it.
public typealias HTTPResponse = CourierHTTP.HTTPResponse
/// Header fields, in order, with case-insensitive names.
public typealias HTTPHeaders = CourierHTTP.HTTPHeaders
/// Why a transport produced no response; ``APIError`` wraps it as ``APIError/transportError``.
public typealias HTTPError = CourierHTTP.HTTPError
/// Upload and download progress in bytes.
public typealias HTTPProgress = CourierHTTP.HTTPProgress
