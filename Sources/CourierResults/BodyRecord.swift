/// A request or response body as recorded: masked with the run's policy and cut
/// to ``BodyRecord/limit`` when recorded, with its real size kept.
package struct BodyRecord: Sendable, Codable, Equatable {
    /// Bytes of body text kept per body: 64 KiB (docs §13), what reports show at most.
    package static let limit = 64 * 1024

    /// What kind of body: bytes in memory, a file streamed from disk, multipart parts.
    package enum Kind: String, Sendable, Codable {
        /// Bytes written by the caller while the request was sent: not kept.
        case bytes, file, multipart, stream
    }

    /// The body's size in bytes (for a file, as far as known when recorded: 0 if not read).
    package var totalBytes: Int
    package var kind: Kind
    /// The text kept, masked, decoded from the body's charset; empty for binary bodies.
    package var text: String
    /// Bytes of the body not in `text` (cut at the limit); 0 when whole.
    package var omittedBytes: Int
    /// Not text (not valid UTF-8, no charset declared): only the size is kept.
    package var binary: Bool
    /// A charset the body declared that Courier does not know; `text` is then UTF-8.
    package var unknownCharset: String?
    /// The file streamed as the body (`kind == .file`).
    package var file: String?
    /// The parts of a multipart body (`kind == .multipart`).
    package var parts: [PartRecord]

    package static let empty = BodyRecord()

    /// Whether the text was cut at the limit.
    package var truncated: Bool { omittedBytes > 0 }

    package var isEmpty: Bool { kind == .bytes && totalBytes == 0 }
}

extension BodyRecord {
    // Here, not in the struct, so that the struct keeps its memberwise initializer (its
    // properties are declared in another order than this one's parameters, or the two
    // would clash): assigning the properties one by one was compiled to build the value
    // in a temporary and copy it out, a retain and a release of everything it holds.
    package init(kind: Kind = .bytes, totalBytes: Int = 0, text: String = "", omittedBytes: Int = 0, binary: Bool = false,
                 unknownCharset: String? = nil, file: String? = nil, parts: [PartRecord] = []) {
        self.init(totalBytes: totalBytes, kind: kind, text: text, omittedBytes: omittedBytes, binary: binary,
                  unknownCharset: unknownCharset, file: file, parts: parts)
    }
}

/// One part of a multipart body.
package struct PartRecord: Sendable, Codable, Equatable {
    package var name: String
    /// A text value, masked and cut like a body.
    package var value: String?
    /// The file streamed as the part.
    package var file: String?
    /// Bytes sent from memory as a file part.
    package var bytes: Int?
    package var filename: String?
    package var contentType: String?

    package init(name: String, value: String? = nil, file: String? = nil, bytes: Int? = nil,
                 filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.value = value
        self.file = file
        self.bytes = bytes
        self.filename = filename
        self.contentType = contentType
    }
}
