import CourierJSON
import Foundation
import Testing

/// A JSON report as written, validated against the committed `docs/report.schema.json`
/// with Courier's own validator (CourierJSON's ``JSONSchema``) before any assertion reads it.
struct JSONReportFile {
    var value: JSONValue
    /// The text as written, for "appears nowhere" checks.
    var text: String

    /// The schema, compiled once per test process.
    static let schema: Result<JSONSchema, HarnessError> = {
        let url = Paths.packageRoot.appendingPathComponent("docs/report.schema.json")
        do {
            let text = try String(contentsOf: url, encoding: .utf8)
            return .success(try JSONSchema(try JSONValue.parse(text)))
        } catch {
            return .failure(HarnessError("docs/report.schema.json does not load: \(error)"))
        }
    }()

    /// The schema's violations by `value`, one line each (empty: valid).
    static func violations(of value: JSONValue) throws -> [String] {
        try schema.get().validate(value).map(\.description)
    }

    /// Parses `text` and records an issue for every schema violation.
    static func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONReportFile {
        let value = try JSONValue.parse(text)
        let violations = try violations(of: value)
        #expect(violations.isEmpty, "the JSON report does not match docs/report.schema.json:\n\(violations.prefix(20).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        return JSONReportFile(value: value, text: text)
    }

    static func load(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONReportFile {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw HarnessError("no JSON report at \(file.path)")
        }
        return try parse(try String(contentsOf: file, encoding: .utf8), sourceLocation: sourceLocation)
    }

    var summary: JSONValue? { value["summary"] }
    var workflows: [JSONValue] { value["run"]?["workflows"]?.arrayValue ?? [] }
    var steps: [JSONValue] { workflows.flatMap { $0["steps"]?.arrayValue ?? [] } }

    func step(_ name: String) -> JSONValue? { steps.first { $0["name"]?.stringValue == name } }
}

extension JSONValue {
    var int: Int? { numberValue?.intValue }
}
