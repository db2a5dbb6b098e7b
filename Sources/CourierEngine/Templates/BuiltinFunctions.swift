import CourierDiagnostics
import CourierJSON
import Foundation

/// `uuid()`, `now()`, `timestamp()`, `random_int(a, b)`, `random_string(n)`.
///
/// The clock is injectable so tests can pin `now()`.
package struct BuiltinFunctions: Sendable {
    package var clock: @Sendable () -> Date

    package init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    func call(_ name: String, _ arguments: [JSONValue], at range: SourceRange) throws(EvaluationError) -> JSONValue {
        switch name {
        case "uuid":
            return .string(UUID().uuidString.lowercased())
        case "now":
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            formatter.timeZone = TimeZone(identifier: "UTC")
            return .string(formatter.string(from: clock()))
        case "timestamp":
            return .number(JSONNumber(Int(clock().timeIntervalSince1970)))
        case "random_int":
            guard arguments.count == 2, case .number(let a) = arguments[0], case .number(let b) = arguments[1],
                  let low = a.intValue, let high = b.intValue else {
                throw EvaluationError(.type, "random_int(a, b) needs two integers", at: range)
            }
            guard low <= high else {
                throw EvaluationError(.invalid, "random_int(\(low), \(high)): the first bound must not exceed the second", at: range)
            }
            return .number(JSONNumber(Int.random(in: low...high)))
        case "random_string":
            guard arguments.count == 1, case .number(let n) = arguments[0], let length = n.intValue, (0...65_536).contains(length) else {
                throw EvaluationError(.type, "random_string(n) needs an integer length from 0 to 65536", at: range)
            }
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
            return .string(String((0..<length).map { _ in alphabet.randomElement()! }))
        default:
            throw EvaluationError(.invalid, "unknown function '\(name)'", at: range)
        }
    }
}
