import CYAML
import CourierDiagnostics

/// Reads any YAML through libyaml's event API into a ``YAMLEventSink``.
enum LibYAMLEvents {
    /// The outcome of reading a stream.
    enum Ending {
        /// The stream ended.
        case finished
        /// The sink stopped reading.
        case stopped
        /// libyaml refused the text: the error to report.
        case invalid(Diagnostic)
    }

    /// Parses `input` (UTF-8), naming positions after `file`.
    static func read<Sink: YAMLEventSink>(_ input: UnsafeBufferPointer<UInt8>, file: String, into sink: inout Sink) -> Ending {
        guard let base = input.baseAddress else {
            // libyaml asserts a non-null input, which an empty buffer may not have.
            let placeholder: [UInt8] = [0]
            return placeholder.withUnsafeBufferPointer {
                read(UnsafeBufferPointer(start: $0.baseAddress, count: 0), file: file, into: &sink)
            }
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            return .invalid(.error("cannot initialise the YAML parser (out of memory?)", at: nil))
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, base, input.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)

        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) != 0 else {
                return .invalid(parserError(parser, input: input, file: file))
            }
            let type = event.type
            let keepGoing = deliver(&event, to: &sink)
            yaml_event_delete(&event)
            if !keepGoing { return .stopped }
            if type == YAML_STREAM_END_EVENT { return .finished }
        }
    }

    private static func deliver<Sink: YAMLEventSink>(_ event: inout yaml_event_t, to sink: inout Sink) -> Bool {
        let start = mark(event.start_mark)
        let end = mark(event.end_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            return sink.documentStart(start: start, end: end)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let text = data.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self) } ?? ""
            let style: YAMLScalar.Style
            switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            return sink.scalar(text, style: style, tag: cString(data.tag), anchor: cString(data.anchor), byteCount: data.length,
                               start: start, end: end)
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            return sink.collectionStart(.sequence, flow: data.style == YAML_FLOW_SEQUENCE_STYLE, tag: cString(data.tag),
                                        anchor: cString(data.anchor), start: start, end: end)
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            return sink.collectionStart(.mapping, flow: data.style == YAML_FLOW_MAPPING_STYLE, tag: cString(data.tag),
                                        anchor: cString(data.anchor), start: start, end: end)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            return sink.collectionEnd(start: start, end: end)
        case YAML_ALIAS_EVENT:
            return sink.alias(cString(event.data.alias.anchor) ?? "", start: start, end: end)
        default:
            return true
        }
    }

    private static func mark(_ mark: yaml_mark_t) -> YAMLMark {
        YAMLMark(line: Int(mark.line), column: Int(mark.column))
    }

    private static func location(_ mark: yaml_mark_t, file: String) -> SourceLocation {
        SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func parserError(_ parser: yaml_parser_t, input: UnsafeBufferPointer<UInt8>, file: String) -> Diagnostic {
        let problem = cString(parser.problem) ?? "unknown error"
        let context = cString(parser.context)
        if parser.error == YAML_READER_ERROR {
            // Reader errors (bad encoding, control characters) carry a byte offset, not a mark.
            let at = SourceRange(at: YAMLLoader.location(ofByte: Int(parser.problem_offset), in: input, file: file))
            return .error("invalid YAML input: \(problem) (byte \(parser.problem_offset))", at: at)
        }
        let at = SourceRange(at: location(parser.problem_mark, file: file))
        // `url: {{ base }}/health`: say what to do instead of what libyaml expected. Only the
        // problem's line and its context's are looked at: a `{{` lines before it may sit in a
        // block scalar (`body: |`), where it is text.
        let contextLine = Int(parser.context_mark.line) + 1
        for line in [at.start.line] + (context != nil && contextLine < at.start.line ? [contextLine] : []) {
            if let mistake = UnquotedTemplate.diagnostic(in: input, lines: line...line, before: (at.start.line, at.start.column), file: file) {
                return mistake
            }
        }
        var notes: [Diagnostic] = []
        if let context {
            let contextLocation = location(parser.context_mark, file: file)
            if contextLocation != at.start {
                notes.append(.note("\(context) that started here", at: SourceRange(at: contextLocation)))
            }
        }
        var message = "invalid YAML: \(problem)"
        if let context { message += " (\(context))" }
        return .error(message, at: at, notes: notes)
    }

    private static func cString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private static func cString(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}
