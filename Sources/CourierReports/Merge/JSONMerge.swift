import CourierJSON
import CourierResults
import Foundation

/// `courier merge-reports` for JSON reports (`--json`): the runs of separate
/// shards as one run, written exactly as `--json` writes a run.
///
/// Each input is decoded into the ``RunResult`` it records and the workflows are
/// concatenated in input order; the summary is recomputed from them by
/// ``JSONReport`` (so it cannot disagree with the workflows), `startedAt` is the
/// earliest input's, the duration the sum of the inputs' (like the JUnit merge:
/// shards often run on separate machines, so a span would mean nothing), and the
/// run is interrupted when any input was (the first input's interruption is kept).
/// `run.mergedShards` lists the slices (`--shard K/N`) the inputs ran, in input order;
/// the merged run is no slice itself, so it has no `run.shard`.
package enum JSONMerge {
    package static func merge(_ inputs: [JUnitMerge.Input]) -> JUnitMerge.Outcome {
        var merger = Merger()
        // A merged report is about as long as its inputs together (Courier writes both).
        merger.assembly.reserveCapacity(inputs.reduce(0) { $0 + $1.bytes.count } + 4096)
        for input in inputs {
            if let fatal = merger.add(input) { return .invalid([fatal]) }
        }
        return merger.finish(lastPath: inputs.last?.path ?? "-")
    }

    /// The merge so far: the workflows rendered, the run's totals, the problems found.
    private struct Merger {
        var problems: [JUnitMerge.Problem] = []
        var assembly = JSONReport.Assembly()
        var startedAt: Timestamp?
        var duration = 0
        var interruption: Interruption?
        var shards: [RunShard] = []
        /// Where each workflow file was seen first.
        var seen: [String: (file: String, line: Int?)] = [:]

        /// Adds one input's workflows and totals, or records what is wrong with it; returns
        /// the problem that ends the merge at once (the merged report cannot be written).
        mutating func add(_ input: JUnitMerge.Input) -> JUnitMerge.Problem? {
            let problem = { (message: String, line: Int?, column: Int?) in
                JUnitMerge.Problem(file: input.path, line: line, column: column, message: message)
            }
            // Our own parser first: its errors say where (Foundation's decoder does not). A report
            // laid out as JSON allows is parsed a workflow at a time (``ReportSlices``).
            var value: JSONValue
            var workflows: WorkflowValues
            if let slices = ReportSlices(input.bytes), let envelope = try? JSONValue.parse(slices.envelope) {
                value = envelope
                workflows = .sliced(input.bytes, slices.workflows)
            } else {
                do {
                    value = try JSONValue.parse(input.bytes)
                } catch {
                    problems.append(problem("not valid JSON: \(error.message)", error.line, error.column))
                    return nil
                }
                workflows = .parsed(JSONMerge.takeWorkflows(from: &value) ?? [])
            }
            guard let version = value["formatVersion"] else {
                problems.append(problem("not a Courier JSON report: no 'formatVersion'", nil, nil))
                return nil
            }
            guard version.isInteger, version.numberValue?.intValue == JSONReport.formatVersion else {
                problems.append(problem("formatVersion \(version.serialized()) is not \(JSONReport.formatVersion), the version this Courier reads and writes", nil, nil))
                return nil
            }
            // The workflows are decoded, checked and rendered one at a time, each value
            // released once rendered: the results of a whole input are never held at once.
            let document: JSONReport.Document
            do {
                // From the parsed value, not the text: numbers keep the text they were written in.
                document = try JSONReport.decode(value)
            } catch {
                problems.append(problem("not a Courier JSON report: \(describe(error))", nil, nil))
                return nil
            }
            var inputProblems: [JUnitMerge.Problem] = []
            if let fatal = addWorkflows(&workflows, of: input, problems: &inputProblems) { return fatal }
            guard inputProblems.isEmpty else {
                problems += inputProblems
                return nil
            }
            guard document.run.durationMicroseconds >= 0 else {
                problems.append(problem("not a Courier JSON report: run.durationMicroseconds is negative", nil, nil))
                return nil
            }
            let (sum, overflowed) = duration.addingReportingOverflow(document.run.durationMicroseconds)
            guard !overflowed else {
                problems.append(problem("the durations add up to more than \(Int.max) microseconds: the merged run.durationMicroseconds cannot be written", nil, nil))
                return nil
            }
            duration = sum
            startedAt = min(startedAt ?? document.run.startedAt, document.run.startedAt)
            interruption = interruption ?? document.run.interruption
            // A slice's report, or a merge of slices: the merged report says which it holds.
            shards += (document.run.shard.map { [$0] } ?? []) + (document.run.mergedShards ?? [])
            return nil
        }

        /// Decodes, checks and renders an input's workflows, each value released once rendered.
        private mutating func addWorkflows(_ workflowValues: inout WorkflowValues, of input: JUnitMerge.Input,
                                           problems inputProblems: inout [JUnitMerge.Problem]) -> JUnitMerge.Problem? {
            let problem = { (message: String, line: Int?, column: Int?) in
                JUnitMerge.Problem(file: input.path, line: line, column: column, message: message)
            }
            var lines = WorkflowLines(input.bytes)
            let decoder = JSONValueDecoder()
            for index in 0..<workflowValues.count {
                let workflow: WorkflowResult
                do {
                    let value = try workflowValues.take(index)
                    workflow = try decoder.decode(WorkflowResult.self, from: value)
                } catch let error as JSONParseError {
                    // Only a sliced report gets here: parsed whole, its error has its position in the file.
                    let whole = Result { () throws(JSONParseError) in try JSONValue.parse(input.bytes) }
                    let found = if case .failure(let wholeError) = whole { wholeError } else { error }
                    inputProblems.append(problem("not valid JSON: \(found.message)", found.line, found.column))
                    break
                } catch {
                    inputProblems.append(problem("not a Courier JSON report: \(describe(error, at: "run.workflows[\(index)]"))", nil, nil))
                    break
                }
                let line = lines.next(workflow.file)
                if let first = seen[workflow.file] {
                    var duplicate = problem("the workflow '\(workflow.file)' is in two reports: a merged report would count it twice", line, line.map { _ in 1 })
                    duplicate.related = first
                    inputProblems.append(duplicate)
                    continue
                }
                seen[workflow.file] = (input.path, line)
                // Rendered now while no input had a problem so far: only the text is kept.
                guard problems.isEmpty, inputProblems.isEmpty else { continue }
                do {
                    try assembly.append(workflow)
                } catch {
                    return JUnitMerge.Problem(file: input.path, line: nil, column: nil, message: "the merged report cannot be written: \(error)")
                }
            }
            return nil
        }

        /// The merged report, or every problem found.
        func finish(lastPath: String) -> JUnitMerge.Outcome {
            guard problems.isEmpty else { return .invalid(problems) }
            let run = RunResult(workflows: [], startedAt: startedAt ?? .zero, durationMicroseconds: duration, interruption: interruption,
                                mergedShards: shards.isEmpty ? nil : shards)
            do {
                return .merged(try assembly.render(run))
            } catch {
                return .invalid([JUnitMerge.Problem(file: lastPath, line: nil, column: nil, message: "the merged report cannot be written: \(error)")])
            }
        }
    }

    /// The lines of the workflows' `"file": "…"` in a report, for messages to point at,
    /// asked for in the order the workflows are written: each is looked for after the
    /// previous one (searching each from the start made a merge of thousands of workflows
    /// quadratic), so the whole search reads the report once. Nil when the text is not laid
    /// out as Courier writes it.
    private struct WorkflowLines {
        private let bytes: [UInt8]
        private let lines: LineIndex
        /// Where the search for the next workflow starts.
        private var cursor = 0
        private static let key = Array("\"file\"".utf8)

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            self.lines = LineIndex(bytes)
        }

        mutating func next(_ file: String) -> Int? {
            // Written as the report writer writes a string.
            let needle = JSONValue.string(file).serializedBytes()
            guard let first = needle.first else { return nil }
            var index = cursor
            while index + needle.count <= bytes.count {
                defer { index += 1 }
                guard bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) else { continue }
                // Back over spaces and ':' to the key.
                var back = index - 1
                while back >= cursor, [0x20, 0x09, UInt8(ascii: ":")].contains(bytes[back]) { back -= 1 }
                guard back + 1 - Self.key.count >= cursor, bytes[(back + 1 - Self.key.count)...back].elementsEqual(Self.key) else { continue }
                cursor = index + needle.count
                return lines.lineAndColumn(of: back + 1 - Self.key.count).line
            }
            return nil
        }
    }

    /// The workflows of one input: parsed with the whole report, or cut from its bytes and
    /// parsed one at a time (``ReportSlices``).
    private enum WorkflowValues {
        case parsed([JSONValue])
        case sliced([UInt8], [Range<Int>])

        var count: Int {
            switch self {
            case .parsed(let values): values.count
            case .sliced(_, let ranges): ranges.count
            }
        }

        /// The workflow at `index`, let go of here: each is read once.
        mutating func take(_ index: Int) throws(JSONParseError) -> JSONValue {
            switch self {
            case .parsed(var values):
                self = .parsed([])
                let value = values[index]
                values[index] = .null
                self = .parsed(values)
                return value
            case .sliced(let bytes, let ranges):
                return try JSONValue.parse(bytes[ranges[index]])
            }
        }
    }

    /// `run.workflows` of a report taken out of it (an empty array left in its place); nil,
    /// the report untouched, when there is no such array (decoding the report then says why).
    private static func takeWorkflows(from value: inout JSONValue) -> [JSONValue]? {
        guard case .object(var document) = value, case .object(var run)? = document["run"],
              case .array(let workflows)? = run["workflows"] else { return nil }
        // Each level let go before it is changed, so that no copy of the workflows is made.
        value = .null
        document["run"] = .null
        run["workflows"] = .array([])
        document["run"] = .object(run)
        value = .object(document)
        return workflows
    }

    /// A decoding error as a path into the report (from `prefix`, the path of the value
    /// decoded) and what is wrong there.
    private static func describe(_ error: Error, at prefix: String = "") -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = prefix + context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the top level" : String(keys.drop { $0 == "." })
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return "'\(key.stringValue)' missing at \(path(context))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            return "\(path(context)): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
