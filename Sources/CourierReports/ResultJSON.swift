import CourierResults
import CourierSecrets
import Foundation

/// A ``RunResult`` as JSON: the results' own encoding (keys sorted, so the same
/// run gives the same text), for tools and for the JSON report to build on.
///
/// Values inside are as recorded (bodies already masked and cut); the text is masked
/// again with the run's policy by ``ReportWriter``, like every output, so secrets
/// registered after a body was recorded and secret captures leave masked too.
package enum ResultJSON {
    package static func render(_ run: RunResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(run), as: UTF8.self) + "\n"
    }

    package static func decode(_ text: String) throws -> RunResult {
        try JSONDecoder().decode(RunResult.self, from: Data(text.utf8))
    }

    /// Writes the JSON through ``ReportWriter`` (masked at the door).
    package static func write(_ run: RunResult, to path: String, maskingWith secrets: SecretRegistry) throws {
        try ReportWriter.write(render(run), to: path, maskingWith: secrets)
    }
}
