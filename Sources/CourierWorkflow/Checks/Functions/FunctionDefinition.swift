import CourierDiagnostics
import CourierJSON
import Foundation

/// What only the engine has that template functions and filters read: the clock and the random
/// source (injectable, so tests can pin `now()`, `days_before_now` and draws).
package protocol FunctionContext {
    func now() -> Date
    /// A uniformly random integer in `range`.
    func randomInt(in range: ClosedRange<Int>) -> Int
    func uuid() -> UUID
}

/// One template function of spec section 9 (`uuid()`, `random_int(a, b)`): its shape and its
/// evaluation, listed in ``Functions/all``.
package final class FunctionDefinition: Sendable {
    package let shape: CallShape
    private let evaluation: @Sendable (_ arguments: [JSONValue], _ context: any FunctionContext, _ range: SourceRange) throws(EvaluationError) -> JSONValue

    init(_ shape: CallShape,
         evaluation: @escaping @Sendable ([JSONValue], any FunctionContext, SourceRange) throws(EvaluationError) -> JSONValue) {
        self.shape = shape
        self.evaluation = evaluation
    }

    package func call(_ arguments: [JSONValue], context: any FunctionContext, at range: SourceRange) throws(EvaluationError) -> JSONValue {
        try evaluation(arguments, context, range)
    }
}

/// The template functions, each defined once with its evaluation.
package enum Functions {
    package static let all: [FunctionDefinition] = [uuid, now, timestamp, randomInt, randomString]

    private static let byName: [String: FunctionDefinition] = Dictionary(uniqueKeysWithValues: all.map { ($0.shape.name, $0) })

    package static func named(_ name: String) -> FunctionDefinition? { byName[name] }

    /// Names and argument counts, for the parser's checks.
    package static let arities: [String: ClosedRange<Int>] = byName.mapValues(\.shape.arguments)

    static let uuid = FunctionDefinition(
        CallShape(name: "uuid", description: "A random UUID, lower case.", example: "{{ uuid() }}")
    ) { _, context, _ in
        .string(context.uuid().uuidString.lowercased())
    }

    static let now = FunctionDefinition(
        CallShape(name: "now", description: "The current time, RFC 3339 in UTC (2026-11-30T12:00:00Z).", example: "{{ now() }}")
    ) { _, context, _ in
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return .string(formatter.string(from: context.now()))
    }

    static let timestamp = FunctionDefinition(
        CallShape(name: "timestamp", description: "The current time in whole seconds since 1970 (Unix time).", example: "{{ timestamp() }}")
    ) { _, context, _ in
        .number(JSONNumber(Int(context.now().timeIntervalSince1970)))
    }

    static let randomInt = FunctionDefinition(
        CallShape(name: "random_int", arguments: 2...2, description: "A random integer from the first bound to the second, both included.",
                  example: "{{ random_int(1, 100) }}")
    ) { arguments, context, range throws(EvaluationError) in
        guard arguments.count == 2, case .number(let a) = arguments[0], case .number(let b) = arguments[1],
              let low = a.intValue, let high = b.intValue else {
            throw EvaluationError(.type, "random_int(a, b) needs two integers", at: range)
        }
        guard low <= high else {
            throw EvaluationError(.invalid, "random_int(\(low), \(high)): the first bound must not exceed the second", at: range)
        }
        return .number(JSONNumber(context.randomInt(in: low...high)))
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    static let randomString = FunctionDefinition(
        CallShape(name: "random_string", arguments: 1...1, description: "Random letters and digits, as many as asked (0 to 65536).",
                  example: "{{ random_string(12) }}")
    ) { arguments, context, range throws(EvaluationError) in
        guard arguments.count == 1, case .number(let n) = arguments[0], let length = n.intValue, (0...65_536).contains(length) else {
            throw EvaluationError(.type, "random_string(n) needs an integer length from 0 to 65536", at: range)
        }
        return .string(String((0..<length).map { _ in alphabet[context.randomInt(in: 0...(alphabet.count - 1))] }))
    }
}
