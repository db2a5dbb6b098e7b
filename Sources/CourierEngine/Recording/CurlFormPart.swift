import CourierHTTP

/// One `multipart/form-data` part as curl options that build the same part.
///
/// curl hands its `-F`/`--form-string` parts to the same libcurl MIME calls Courier makes,
/// so the part's bytes are libcurl's either way; what matters is that curl's own parsing of
/// the option gives the same name, value, file, filename and type:
/// - a plain value is `--form-string name=value` (nothing in it is read as `@FILE`, `<FILE`
///   or `;type=`);
/// - a value with a filename or type, a file, a path or filename holding `;`, `,` or `"` are
///   `-F` with each word double-quoted (`name="@v";filename="a;b.txt"`, `\"` and `\\` inside),
///   which curl reads literally;
/// - a name curl's `name=` cannot hold (empty, or with `=`) is sent through the part's own
///   `Content-Disposition` (`;headers="Content-Disposition: form-data; name=\"h=i\""`), which
///   libcurl then sends instead of building one; only for a plain value, whose part has no other
///   header libcurl would place before it.
/// What none of these can send gives a reason instead of a command.
struct CurlFormPart {
    let part: MultipartPart
    let index: Int

    init(_ part: MultipartPart, index: Int) {
        self.part = part
        self.index = index
    }

    /// Adds the part's option; a reason when curl cannot send the part as it was.
    func render(into line: inout CurlArguments) -> String? {
        let name = part.name
        if name.isEmpty || name.contains("=") {
            return renderWithDisposition(into: &line)
        }
        var extras = ""
        if let filename = part.filename {
            guard !filename.utf8.contains(0) else { return reason("its filename holds a NUL byte") }
            extras += ";filename=" + Self.word(filename)
        }
        if let type = part.contentType {
            guard Self.isPlainType(type) else { return reason("curl's `;type=` cannot carry its type") }
            extras += ";type=" + type
        }
        switch part.content {
        case .value(let value):
            guard !value.utf8.contains(0) else { return reason("its value holds a NUL byte, which no shell argument can") }
            if extras.isEmpty {
                line.option("--form-string", "\(name)=\(value)")
            } else {
                line.option("-F", "\(name)=\(Self.word(value))\(extras)")
            }
        case .file(let path):
            line.option("-F", "\(name)=@\(Self.word(path == "-" ? "./-" : path))\(extras)")
        case .data(let bytes):
            let file = "part\(index + 1).bin"
            line.note("# part '\(name)' was read from a pipe (\(bytes.count) bytes): put it in \(file)")
            // `<FILE` sends the file's bytes as the value, without a filename, as Courier sent the
            // bytes it had read; with a filename, `@FILE` and that filename.
            line.option("-F", part.filename == nil ? "\(name)=<\(Self.word(file))\(extras)" : "\(name)=@\(Self.word(file))\(extras)")
        }
        return nil
    }

    /// A plain value under a name `name=` cannot hold, through its own `Content-Disposition`.
    private func renderWithDisposition(into line: inout CurlArguments) -> String? {
        guard case .value(let value) = part.content, part.filename == nil, part.contentType == nil else {
            return reason("curl cannot name it (its name is empty or holds '=') unless it is a plain value")
        }
        // libcurl escapes `"`, CR and LF in the names it writes (how depends on its version): such a
        // name, written here, might differ from Courier's.
        guard !part.name.unicodeScalars.contains(where: { "\"\\\r\n\0".unicodeScalars.contains($0) }),
              !value.utf8.contains(0) else {
            return reason("curl cannot name it as libcurl did (its name holds '=' and a quote, backslash or line break)")
        }
        let disposition = "Content-Disposition: form-data; name=\"\(part.name)\""
        line.option("-F", "part=\(Self.word(value));headers=\(Self.word(disposition))")
        return nil
    }

    private func reason(_ why: String) -> String {
        "curl's -F cannot send multipart part \(index + 1) as Courier did: \(why)"
    }

    /// A word of curl's `-F` syntax in double quotes, read literally (only `\"` and `\\` are escapes).
    static func word(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// A type curl's `;type=` reads back as written: `major/minor`, then `;`-separated
    /// parameters, none holding `,` or `"` or looking like another of `-F`'s keys.
    static func isPlainType(_ type: String) -> Bool {
        let pieces = type.split(separator: ";", omittingEmptySubsequences: false)
        guard let first = pieces.first, !type.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline || $0 == "\0" }),
              type.first?.isWhitespace == false, type.last?.isWhitespace == false else { return false }
        let halves = first.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty, halves[0].utf8.count < 128, halves[1].utf8.count < 128,
              !first.contains(where: \.isWhitespace) else { return false }
        return pieces.dropFirst().allSatisfy { piece in
            let trimmed = piece.drop(while: \.isWhitespace).lowercased()
            return !trimmed.isEmpty && !["filename=", "headers=", "encoder=", "type="].contains(where: { trimmed.hasPrefix($0) })
        }
    }
}
