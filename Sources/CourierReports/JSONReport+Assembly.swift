import CourierJSON
import CourierResults

extension JSONReport {
    /// The report of a run whose workflows come a batch at a time (`merge-reports`, a shard's
    /// report after another), written exactly as ``JSONReport/render(_:)`` writes the run
    /// holding them all.
    ///
    /// Each workflow is rendered when it comes and only its text and counts are kept, so a
    /// merge holds about one copy of its inputs' text, not the results of every workflow and
    /// a value tree of the whole report as well (21–35 times the inputs before).
    package struct Assembly {
        /// The workflows' text, each as it sits in the `workflows` array of the report.
        private var workflowsText: [UInt8] = []
        private var summary = Summary(RunResult(workflows: [], durationMicroseconds: 0))
        /// The `workflows` array inside `run` inside the document: its items three levels deep.
        private static let workflowLevel = 3

        package init() {}

        /// Room for about `bytes` of workflows' text (a merge: its inputs' size), so that the
        /// text is not copied each time it outgrows its buffer; pages never written cost nothing.
        package mutating func reserveCapacity(_ bytes: Int) {
            workflowsText.reserveCapacity(bytes)
        }

        package mutating func append(_ workflow: WorkflowResult) throws(EncodingFailure) {
            let hidden = hidingSecretCaptures(RunResult(workflows: [workflow], durationMicroseconds: 0)).workflows[0]
            let value: JSONValue
            do {
                value = sortingKeys(try JSONValue(encoding: hidden))
            } catch {
                throw EncodingFailure(reason: "\(error)")
            }
            workflowsText += Array((workflowsText.isEmpty ? "\n" : ",\n").utf8)
            workflowsText += [UInt8](repeating: UInt8(ascii: " "), count: 2 * Self.workflowLevel)
            workflowsText += value.serializedBytes(prettyAtLevel: Self.workflowLevel)
            summary.add(workflowsOf: Summary(RunResult(workflows: [workflow], durationMicroseconds: 0)))
        }

        /// The report of `run` (whose own `workflows` are ignored) holding the workflows appended.
        package consuming func render(_ run: RunResult) throws(EncodingFailure) -> String {
            var envelope = run
            envelope.workflows = []
            var document = Document(envelope)
            document.summary.add(workflowsOf: summary)
            let value: JSONValue
            do {
                value = sortingKeys(try JSONValue(encoding: document))
            } catch {
                throw EncodingFailure(reason: "\(error)")
            }
            let text = value.serializedBytes(pretty: true) + Array("\n".utf8)
            guard !workflowsText.isEmpty else { return String(decoding: text, as: UTF8.self) }
            // The envelope's only empty `workflows` array (the summary's `workflows` is a count).
            guard let at = Self.firstRange(of: Array("\"workflows\": []".utf8), in: text) else {
                throw EncodingFailure(reason: "the report's envelope has no workflows array")
            }
            let close = Array("\n".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 2 * (Self.workflowLevel - 1))
            let parts = [text[..<(at.upperBound - 1)], workflowsText[...], close[...], text[(at.upperBound - 1)...]]
            // Written straight into the string: a copy of the workflows' text between would
            // hold them twice more.
            return String(unsafeUninitializedCapacity: parts.reduce(0) { $0 + $1.count }) { buffer in
                var written = 0
                for part in parts {
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(from: part)
                    written += part.count
                }
                return written
            }
        }

        private static func firstRange(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
            guard bytes.count >= needle.count else { return nil }
            for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle) {
                return start..<(start + needle.count)
            }
            return nil
        }
    }
}
