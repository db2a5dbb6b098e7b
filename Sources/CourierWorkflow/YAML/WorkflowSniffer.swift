import CYAML
import CourierDiagnostics

/// Tells, without building a tree, whether a YAML file found in a directory is meant as a
/// Courier workflow: a top-level `steps:` key (or one within edit distance 2 of it, a typo
/// that must still be reported) makes it one.
///
/// Reads libyaml's events of the first document only, and types and resolves nothing, so
/// another tool's file (a multi-document Kubernetes manifest, CloudFormation's `!Ref` tags,
/// a `docker-compose.yml` with anchors) is judged by its keys, never by what Courier's loader
/// would reject in it.
package enum WorkflowSniffer {
    package enum Verdict: Equatable, Sendable {
        /// A top-level `steps:` (or close to it). `looksLikeCourier`: some step holds a `request`
        /// or an `include` (or a key close to them): false for Cloud Build or Drone steps.
        case workflow(looksLikeCourier: Bool)
        /// No top-level `steps:`: another tool's file, a vars file, a fragment of values.
        case notWorkflow
        /// libyaml stopped before a `steps:` key was seen: it could be a broken workflow.
        case unparsable
    }

    /// The verdict on `text` (UTF-8 YAML).
    package static func verdict(of text: String) -> Verdict {
        var text = text
        return text.withUTF8 { verdict(of: $0) }
    }

    package static func verdict(of input: UnsafeBufferPointer<UInt8>) -> Verdict {
        guard let base = input.baseAddress, !input.isEmpty else { return .notWorkflow }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else { return .unparsable }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, base, input.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)

        var state = State()
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) != 0 else {
                return state.sawSteps ? .workflow(looksLikeCourier: state.sawCourierStep) : .unparsable
            }
            let done = state.handle(event)
            yaml_event_delete(&event)
            if let done { return done }
        }
    }

    /// Whether a top-level key names `steps` or is a likely typo of it (`stpes`, `Steps`).
    package static func isStepsKey(_ key: String) -> Bool {
        isClose(key, to: "steps")
    }

    private static func isClose(_ key: String, to word: String) -> Bool {
        let lowered = key.lowercased()
        guard abs(lowered.unicodeScalars.count - word.count) <= 2 else { return false }
        return editDistance(Array(lowered.unicodeScalars), Array(word.unicodeScalars)) <= 2
    }

    /// Where the walk is: a stack of open collections with what they are.
    private struct State {
        enum Container {
            /// `nextIsKey` alternates; `key` is the last key read (for the value that follows).
            case mapping(nextIsKey: Bool, key: String?)
            case sequence
        }
        var stack: [Container] = []
        var documents = 0
        var sawSteps = false
        var sawCourierStep = false
        /// Depth of the root `steps` sequence (1-based stack count), while inside it.
        var stepsDepth: Int?

        /// Returns a verdict once one is known.
        mutating func handle(_ event: yaml_event_t) -> Verdict? {
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                // Only the first document counts (a second one is Courier's loader's error).
                if documents > 1 { return finish() }
            case YAML_DOCUMENT_END_EVENT, YAML_STREAM_END_EVENT:
                return finish()
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = scalar.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self) }
                if stack.isEmpty { return .notWorkflow }  // a document that is one scalar
                if case .mapping(true, _)? = stack.last, let text {
                    if stack.count == 1, WorkflowSniffer.isStepsKey(text) { sawSteps = true }
                    // A key of a mapping that is a step (an item of the root `steps` list).
                    if let stepsDepth, stack.count == stepsDepth + 1,
                       WorkflowSniffer.isClose(text, to: "request") || WorkflowSniffer.isClose(text, to: "include") {
                        sawCourierStep = true
                    }
                }
                valueEnded(key: text)
            case YAML_ALIAS_EVENT:
                valueEnded(key: nil)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                if stack.isEmpty && event.type == YAML_SEQUENCE_START_EVENT {
                    // A list at the top (a fragment of steps, a data file): no top-level keys at all.
                    return .notWorkflow
                }
                // The root mapping's `steps` value, when it is a list.
                if event.type == YAML_SEQUENCE_START_EVENT, stack.count == 1,
                   case .mapping(false, let key?)? = stack.last, WorkflowSniffer.isStepsKey(key) {
                    stepsDepth = stack.count + 1
                }
                stack.append(event.type == YAML_MAPPING_START_EVENT ? .mapping(nextIsKey: true, key: nil) : .sequence)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                if stepsDepth == stack.count { stepsDepth = nil }
                stack.removeLast()
                if stack.isEmpty { return finish() }
                valueEnded(key: nil)
            default:
                break
            }
            // A Courier step seen: nothing more to learn.
            return sawSteps && sawCourierStep ? .workflow(looksLikeCourier: true) : nil
        }

        /// After a whole node: a mapping flips between key and value.
        mutating func valueEnded(key: String?) {
            guard case .mapping(let nextIsKey, let last)? = stack.last else { return }
            stack[stack.count - 1] = nextIsKey ? .mapping(nextIsKey: false, key: key) : .mapping(nextIsKey: true, key: last)
        }

        func finish() -> Verdict {
            sawSteps ? .workflow(looksLikeCourier: sawCourierStep) : .notWorkflow
        }
    }
}
