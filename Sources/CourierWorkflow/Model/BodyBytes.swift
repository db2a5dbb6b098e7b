import CourierDiagnostics

/// What `bytes:` (spec sections 7 and 8) reads of a body's bytes; each is computed at most
/// once per response, and only when a check or capture asks.
package enum BytesView: String, Sendable, CaseIterable {
    /// The number of bytes (the body's length in UTF-8 bytes when it is UTF-8 text;
    /// `body: { length: }` counts characters).
    case length
    /// The SHA-256 digest, 64 lower-case hex digits.
    case sha256
    /// The MD5 digest, 32 lower-case hex digits.
    case md5
    /// The whole body as lower-case hex, two digits a byte.
    case hex
    /// The whole body as standard base64 with `=` padding (RFC 4648 §4).
    case base64
    /// The bytes themselves, compared whole with a file (`equals_file`).
    case content

    /// The key as written under `bytes:`.
    package var key: String { self == .content ? "equals_file" : rawValue }
}

/// Which bytes of the body a check or capture reads.
package enum BodyBytes: Sendable, Hashable {
    /// After the `Content-Encoding` (gzip, deflate, br) is undone: what `body` and `json` read.
    case decoded
    /// As received, before content decoding (`raw: true`): asking for them makes Courier
    /// receive the body undecoded and decode it itself, so one request gives both.
    case raw
}

/// A file whose bytes the body must equal (`bytes: { equals_file: path }`): the path as
/// written, checked at load when it has no template, and read when the step is checked.
package struct BytesFile: Sendable {
    package let path: Template
    /// The directory of the workflow that names it: a relative path starts there.
    package let directory: String

    package init(path: Template, directory: String) {
        self.path = path
        self.directory = directory
    }
}
