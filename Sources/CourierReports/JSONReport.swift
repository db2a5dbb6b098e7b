import CourierJSON
import CourierResults
import CourierSecrets
import Foundation

/// The JSON report (`--json FILE`): the run's results as they are recorded, in a
/// versioned envelope with the counts a tool checks first.
///
/// The report is the encoded ``RunResult`` itself (the keys the results' Codable
/// conformances write), not a second shape to keep in step: a
/// tool reads what the engine knows, and `docs/report.schema.json` pins every key.
/// Keys are camelCase throughout, durations integer microseconds named so
/// (`durationMicroseconds`), instants ISO 8601 UTC (``Timestamp``). A change that
/// removes or renames a key raises ``formatVersion``; adding an optional key does not.
package enum JSONReport {
    /// The report format's version: `formatVersion` in every report.
    package static let formatVersion = 1

    /// The envelope: what is written, and what a tool decodes.
    package struct Document: Sendable, Codable, Equatable {
        package var formatVersion: Int
        package var summary: Summary
        package var run: RunResult

        package init(_ run: RunResult) {
            self.formatVersion = JSONReport.formatVersion
            self.summary = Summary(run)
            self.run = JSONReport.hidingSecretCaptures(run)
        }
    }

    /// `run` with the value of every `secret: true` capture replaced by `***` as a whole, as
    /// the contract says and the HTML report shows it: masking reaches strings only, so a
    /// captured number (or a number in a captured list or map) would be written as is, and a
    /// list or map would show its shape. Idempotent (a merge re-reads what was written).
    static func hidingSecretCaptures(_ run: RunResult) -> RunResult {
        var run = run
        for workflow in run.workflows.indices {
            for step in run.workflows[workflow].steps.indices {
                for capture in run.workflows[workflow].steps[step].captures.indices
                where run.workflows[workflow].steps[step].captures[capture].secret {
                    run.workflows[workflow].steps[step].captures[capture].value = .string(MaskingPolicy.mask)
                }
            }
        }
        return run
    }

    /// Counts of steps by outcome (each `for_each` item counted), workflows, and attempts sent.
    package struct Summary: Sendable, Codable, Equatable {
        package var passed: Bool
        package var interrupted: Bool
        package var workflows: Int
        package var failedWorkflows: Int
        package var steps: Int
        package var passedSteps: Int
        package var failedSteps: Int
        package var erroredSteps: Int
        package var skippedSteps: Int
        /// Attempts made, retries included.
        package var attempts: Int
        package var durationMicroseconds: Int

        package init(_ run: RunResult) {
            let counts = run.stepCounts
            passed = run.passed && !run.interrupted
            interrupted = run.interrupted
            workflows = run.workflows.count
            failedWorkflows = run.workflowCounts.failed
            steps = counts.total
            passedSteps = counts.passed
            failedSteps = counts.failed
            erroredSteps = counts.errored
            skippedSteps = counts.skipped
            attempts = run.workflows.reduce(0) { $0 + $1.steps.reduce(0) { $0 + $1.attempts.count } }
            durationMicroseconds = run.durationMicroseconds
        }

        /// Adds the workflows `other` counts, as if this run had held them too: every count
        /// is a sum over the run's workflows and `passed` holds only while each of them passed.
        /// The run's own `interrupted` and `durationMicroseconds` stay.
        mutating func add(workflowsOf other: Summary) {
            passed = passed && other.passed
            workflows += other.workflows
            failedWorkflows += other.failedWorkflows
            steps += other.steps
            passedSteps += other.passedSteps
            failedSteps += other.failedSteps
            erroredSteps += other.erroredSteps
            skippedSteps += other.skippedSteps
            attempts += other.attempts
        }
    }

    /// The report's text with every string value masked by `policy`, and the keys and numbers
    /// of the workflow's own data (what sits under a `value` key, a captured value, or a `json`
    /// key, a checked value): a number that holds a secret (`secrets: { pin: 987654 }`) becomes
    /// the masked text, a string, since its digits are the secret. The report's own keys and
    /// numbers (counts, statuses, sizes, times) are never masked: a secret that happens to be a
    /// key name (`secret`, `name`) or a number (`2026`) must not change the report's shape.
    /// Written with ``ReportWriter/Masking/byRenderer``, since masking the whole text would do just that.
    package static func render(_ run: RunResult, policy: MaskingPolicy) throws(EncodingFailure) -> String {
        masked(try document(run), policy: policy, userData: false, key: nil).serialized(pretty: true) + "\n"
    }

    /// `value`, found under `key`, masked (see ``render(_:policy:)``).
    private static func masked(_ value: JSONValue, policy: MaskingPolicy, userData: Bool, key: String?) -> JSONValue {
        switch value {
        case .string(let text):
            // The report's own words and instants hold nothing of the workflow's: a secret
            // `2026` or `passed` must not turn them into `***-11-30T…` or a kind the schema lacks.
            if !userData, let key, vocabularyKeys.contains(key) { return value }
            return .string(policy.mask(text))
        case .number(let number) where userData:
            let masked = policy.mask(number.description)
            return masked == number.description ? value : .string(masked)
        case .array(let items):
            return .array(items.map { masked($0, policy: policy, userData: userData, key: key) })
        case .object(let object):
            return .object(JSONObject(object.map { member in
                (key: userData ? policy.mask(member.key) : member.key,
                 value: masked(member.value, policy: policy, userData: userData || userDataKeys.contains(member.key), key: member.key))
            }))
        default:
            return value
        }
    }

    /// The report's text: sorted keys, so the same run gives the same bytes.
    /// Bodies are already masked and cut in the results; ``render(_:policy:)`` masks the rest.
    package static func render(_ run: RunResult) throws(EncodingFailure) -> String {
        try document(run).serialized(pretty: true) + "\n"
    }

    /// Why a run has no JSON report: it is not written then (exit 3), never replaced by
    /// a stub in another shape.
    package struct EncodingFailure: Error, CustomStringConvertible {
        package var reason: String
        package var description: String { "the results cannot be encoded as JSON: \(reason)" }
    }

    /// The report as a JSON value with keys sorted by their UTF-8 bytes (the order
    /// Foundation's `.sortedKeys` gives). Built by ``JSONValue/init(encoding:)``, which keeps
    /// every `JSONValue` of the results as it is: a server's number (`1e400`, 40 digits)
    /// is written as the text it sent, where a trip through `JSONEncoder` forced it through
    /// `Decimal` or `Double` and failed on the ones that do not fit.
    private static func document(_ run: RunResult) throws(EncodingFailure) -> JSONValue {
        do {
            return sortingKeys(try JSONValue(encoding: Document(run)))
        } catch {
            throw EncodingFailure(reason: "\(error)")
        }
    }

    static func sortingKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .array(items.map(sortingKeys))
        case .object(let object):
            let members = object.map { (key: $0.key, value: sortingKeys($0.value)) }
                .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return .object(JSONObject(members))
        default:
            return value
        }
    }

    /// The report's keys under which the workflow's own data sits: a capture's `value`, a
    /// checked value's `json`.
    private static let userDataKeys: Set<String> = ["value", "json"]

    /// The report's keys whose string values are its own vocabulary, pinned by the schema
    /// (an enum or the timestamp pattern): a step's `phase`, an outcome's or a body's `kind`,
    /// an expectation's `outcome`, every `startedAt`. Never masked outside the workflow's data.
    private static let vocabularyKeys: Set<String> = ["phase", "kind", "outcome", "startedAt"]

    /// A report as written, decoded with ``JSONValueDecoder``: every number of the workflow's
    /// data keeps its text (`JSONDecoder` fails on `1e400` and rounds 40 digits).
    package static func decode(_ text: String) throws -> Document {
        try decode(try JSONValue.parse(Array(text.utf8)))
    }

    package static func decode(_ value: JSONValue) throws -> Document {
        try JSONValueDecoder().decode(Document.self, from: value)
    }
}
