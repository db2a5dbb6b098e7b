import CourierDiagnostics
import CourierJSON
import CourierWorkflow
import Foundation

/// The engine's clock and random source for template functions (``Functions``).
///
/// The clock is injectable so tests can pin `now()`.
package struct BuiltinFunctions: Sendable, FunctionContext {
    package var clock: @Sendable () -> Date

    package init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    package func now() -> Date { clock() }

    package func randomInt(in range: ClosedRange<Int>) -> Int { Int.random(in: range) }

    package func uuid() -> UUID { UUID() }

    func call(_ name: String, _ arguments: [JSONValue], at range: SourceRange) throws(EvaluationError) -> JSONValue {
        // Unknown names are decode-time errors; this one is for expressions made in code.
        guard let function = Functions.named(name) else {
            throw EvaluationError(.invalid, "unknown function '\(name)'", at: range)
        }
        return try function.call(arguments, context: self, at: range)
    }
}
