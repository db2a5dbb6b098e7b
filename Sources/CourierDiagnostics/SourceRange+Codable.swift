/// Results carry source ranges (where an expectation or step is written), and
/// results are encoded: `{"file", "line", "column", "endLine", "endColumn"}`.
extension SourceRange: Codable {
    private enum CodingKeys: String, CodingKey { case file, line, column, endLine, endColumn }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(file: try container.decode(String.self, forKey: .file),
                  startLine: try container.decode(Int.self, forKey: .line),
                  startColumn: try container.decode(Int.self, forKey: .column),
                  endLine: try container.decode(Int.self, forKey: .endLine),
                  endColumn: try container.decode(Int.self, forKey: .endColumn))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(start.line, forKey: .line)
        try container.encode(start.column, forKey: .column)
        try container.encode(end.line, forKey: .endLine)
        try container.encode(end.column, forKey: .endColumn)
    }
}
