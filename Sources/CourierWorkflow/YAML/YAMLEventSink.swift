/// A position in the YAML text as libyaml reports it: 0-based line, and 0-based
/// column counted in characters (Unicode scalars).
struct YAMLMark: Equatable {
    var line: Int
    var column: Int
}

/// Whether a collection event opens a sequence or a mapping.
enum YAMLCollectionKind: Equatable {
    case sequence, mapping
}

/// Receives the events of one YAML stream in document order, from libyaml
/// (``LibYAMLEvents``) or from the fast reader of everyday workflow files
/// (``CommonYAMLReader``). Both must give the same events for the same text:
/// the loader's tree, its ranges and its diagnostics are built from them alone.
///
/// Each call returns false to stop reading (a fatal problem was recorded).
protocol YAMLEventSink {
    mutating func documentStart(start: YAMLMark, end: YAMLMark) -> Bool
    /// `byteCount` is the UTF-8 length of `text` (libyaml's scalar length).
    mutating func scalar(_ text: String, style: YAMLScalar.Style, tag: String?, anchor: String?, byteCount: Int,
                         start: YAMLMark, end: YAMLMark) -> Bool
    mutating func collectionStart(_ kind: YAMLCollectionKind, flow: Bool, tag: String?, anchor: String?,
                                  start: YAMLMark, end: YAMLMark) -> Bool
    /// Ends the innermost open collection.
    mutating func collectionEnd(start: YAMLMark, end: YAMLMark) -> Bool
    mutating func alias(_ anchor: String, start: YAMLMark, end: YAMLMark) -> Bool
}
