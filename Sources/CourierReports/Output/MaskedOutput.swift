import CourierDiagnostics
import CourierSecrets

/// A console stream as reporters and the command line hold it: a
/// ``ConsoleWriter`` and the run's ``SecretRegistry``; every write is masked
/// with the policy current at that moment (secrets captured by the step just
/// finished included), then its control characters are escaped.
///
///     let output = MaskedOutput(ConsoleWriter.standardOutput, secrets: registry)
///     output.write("  PASS  log in  200  12 ms\n")
package struct MaskedOutput: Sendable {
    /// Private: whoever holds the output cannot reach the writer to write around the policy.
    private let writer: ConsoleWriter
    private let secrets: SecretRegistry

    package init(_ writer: ConsoleWriter, secrets: SecretRegistry) {
        self.writer = writer
        self.secrets = secrets
    }

    /// Writes `text` masked, as one write (keep a block in one call: see ``ConsoleWriter/write(_:maskingWith:)``).
    package func write(_ text: TerminalText) {
        writer.write(text, maskingWith: secrets)
    }

    /// Writes `text`, all of it text: every control character in it is escaped.
    package func write(_ text: String) {
        writer.write(TerminalText(text), maskingWith: secrets)
    }

    /// The policy now, for reporters that cut text (mask first, then cut).
    package var policy: MaskingPolicy { secrets.policy }

    package var fileDescriptor: Int32 { writer.fileDescriptor }
}
