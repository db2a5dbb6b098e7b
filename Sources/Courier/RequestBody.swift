import CourierHTTP
import Foundation

/// What a request carries.
///
/// ```swift
/// var body: RequestBody? { .json(NewUser(fullName: name)) }
/// var body: RequestBody? { .form(["grant_type": "client_credentials"]) }
/// var body: RequestBody? { .sensitive(.form(["password": password])) }
/// ```
public indirect enum RequestBody: Sendable {
    /// A value encoded with the client's `JSONEncoder` (its key and date strategies);
    /// `Content-Type: application/json`.
    case json(any Encodable & Sendable)
    /// `application/x-www-form-urlencoded`, fields sorted by name so the bytes are the
    /// same on every run.
    case form([String: String])
    /// Bytes sent as they are, with this `Content-Type`.
    case raw(Data, contentType: String)
    /// `multipart/form-data`; file parts are streamed from disk, never loaded whole.
    case multipart(MultipartForm)
    /// The same body, marked secret: descriptions of requests and errors never show it.
    case sensitive(RequestBody)

    /// Whether the body (or the body it wraps) is marked ``sensitive(_:)``.
    public var isSensitive: Bool {
        if case .sensitive = self { return true }
        return false
    }
}

/// The parts of a `multipart/form-data` body: text fields and files.
///
/// ```swift
/// var form = MultipartForm()
/// form.addField(name: "title", value: "Holiday")
/// form.addFile(name: "photo", path: "/tmp/beach.jpg", contentType: "image/jpeg")
/// ```
public struct MultipartForm: Sendable {
    /// The parts in the order they are sent.
    public var parts: [MultipartPart]

    /// A form of `parts` (none by default).
    public init(parts: [MultipartPart] = []) { self.parts = parts }

    /// Adds a text field.
    public mutating func addField(name: String, value: String) {
        parts.append(MultipartPart(name: name, content: .value(value)))
    }

    /// Adds a file part streamed from the regular file at `path` when the request is sent.
    /// `filename` defaults to the path's last component; `contentType` is guessed from
    /// the extension when nil.
    public mutating func addFile(name: String, path: String, filename: String? = nil, contentType: String? = nil) {
        parts.append(MultipartPart(name: name, content: .file(path: path), filename: filename, contentType: contentType))
    }

    /// Adds bytes already in memory as a file part named `filename`.
    public mutating func addData(name: String, data: Data, filename: String, contentType: String? = nil) {
        parts.append(MultipartPart(name: name, content: .data([UInt8](data)), filename: filename, contentType: contentType))
    }
}
