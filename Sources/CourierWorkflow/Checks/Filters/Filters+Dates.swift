import CourierDiagnostics
import CourierJSON
import Foundation

/// The date filters of section 9. A date is read as ``DateText`` says (ISO 8601, an HTTP
/// date, or a number of seconds since 1970) or with a strftime format (``DatePattern``), and
/// computed with as a ``DateInstant``: exact to the microsecond, in UTC whatever `TZ` says.
extension Filters {
    static let toDate = FilterDefinition(
        CallShape(name: "to_date", arguments: 0...1, input: "a string (without a format, also a number of seconds since 1970)",
                  description: "The date as RFC 3339 in UTC with microseconds (2026-11-30T11:00:00.000000Z), read with the "
                      + "strftime format, or without one as ISO 8601 (with its offset) or an HTTP date (IMF-fixdate, RFC 850, asctime).",
                  example: "{{ '30/11/2026 12:00 +0100' | to_date('%d/%m/%Y %H:%M %z') }}")
    ) { input, arguments, call throws(EvaluationError) in
        guard let format = arguments.first else { return .string(try call.date(input).rfc3339) }
        let pattern = try call.format(format)
        do throws(DateProblem) { _ = try DatePattern.tokens(pattern) } catch {
            throw EvaluationError(.invalid, "filter 'to_date': \(error.reason)", at: call.range)
        }
        // With a format the input is text: `20261130 | to_date('%Y%m%d')` reads digits, not seconds.
        let text: String
        switch input {
        case .string(let s): text = s
        case .number(let n): text = n.text
        default:
            throw EvaluationError(.type, "filter 'to_date' needs a string, found \(input.kindDescription)", at: call.range)
        }
        do throws(DateProblem) {
            return .string(try DatePattern.instant(text, format: pattern).rfc3339)
        } catch {
            throw call.notADate(text, error)
        }
    }

    static let formatDate = FilterDefinition(
        CallShape(name: "format_date", arguments: 1...1, input: "a date (as to_date reads it without a format)",
                  description: "The date written with the strftime format, in UTC (%Y-%m-%d, %a, %d %b %Y %H:%M:%S GMT, %s, %f …).",
                  example: "{{ now() | format_date('%a, %d %b %Y %H:%M:%S GMT') }}")
    ) { input, arguments, call throws(EvaluationError) in
        let instant = try call.date(input)
        let pattern = try call.format(arguments.first ?? .null)
        do throws(DateProblem) {
            return .string(try DatePattern.text(instant, format: pattern))
        } catch {
            throw EvaluationError(.invalid, "filter 'format_date': \(error.reason)", at: call.range)
        }
    }

    static let unix = FilterDefinition(
        CallShape(name: "unix", input: "a date (as to_date reads it without a format)",
                  description: "Seconds since 1970 as a number, with the fraction when there is one (1700000000.25).",
                  example: "{{ '2023-11-14T22:13:20Z' | unix }}")
    ) { input, _, call throws(EvaluationError) in
        .number(try call.date(input).unixNumber)
    }

    static let daysBeforeNow = FilterDefinition(
        CallShape(name: "days_before_now", input: "a date (as to_date reads it without a format)",
                  description: "Whole days from the date to now (negative for a date to come), counted towards zero.",
                  example: "{{ '2026-01-01' | days_before_now }}")
    ) { input, _, call throws(EvaluationError) in
        .number(JSONNumber(Int((call.now.microseconds - (try call.date(input)).microseconds) / microsecondsPerDay)))
    }

    static let daysAfterNow = FilterDefinition(
        CallShape(name: "days_after_now", input: "a date (as to_date reads it without a format)",
                  description: "Whole days from now to the date (negative for a date past), counted towards zero.",
                  example: "{{ '2030-01-01' | days_after_now }}")
    ) { input, _, call throws(EvaluationError) in
        .number(JSONNumber(Int(((try call.date(input)).microseconds - call.now.microseconds) / microsecondsPerDay)))
    }

    private static let microsecondsPerDay: Int64 = 86_400_000_000
}

extension FilterCall {
    /// The date `input` names, or the error this filter gives.
    func date(_ input: JSONValue) throws(EvaluationError) -> DateInstant {
        let found: DateInstant?
        do throws(DateProblem) {
            found = try DateText.instant(of: input)
        } catch {
            throw notADate(input.interpolationText, error)
        }
        guard let found else {
            throw EvaluationError(.type, "filter '\(name)' needs a date (a string or a number), found \(input.kindDescription)", at: range)
        }
        return found
    }

    /// The format argument.
    func format(_ argument: JSONValue) throws(EvaluationError) -> String {
        guard case .string(let format) = argument else {
            throw EvaluationError(.type, "filter '\(name)' needs a strftime format string (like '%Y-%m-%d'), found \(argument.kindDescription)",
                                  at: range)
        }
        return format
    }

    func notADate(_ text: String, _ problem: DateProblem) -> EvaluationError {
        EvaluationError(.invalid, "filter '\(name)': \(quoted(text.prefix(80))) is not a date: \(problem.reason)", at: range)
    }

    /// Now, from the engine's clock (tests pin it), to the microsecond.
    var now: DateInstant {
        DateInstant(microseconds: Int64((context.now().timeIntervalSince1970 * 1_000_000).rounded(.down)))
    }
}
