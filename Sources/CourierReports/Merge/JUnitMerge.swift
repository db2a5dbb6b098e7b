import Foundation

/// `courier merge-reports`: the JUnit reports of separate runs (CI shards, runs
/// over different files) as one, as if one run had run them all.
///
/// Every `<testsuite>` of every input is copied byte for byte, in input order,
/// under one `<testsuites>` whose counts and time are the sums of the inputs'.
/// A workflow (a suite's `file`, or its `name` without one) in two inputs is an
/// error: the merged report would count it twice.
package enum JUnitMerge {
    /// An input that cannot be merged: where (file, and line and column when
    /// the problem is in the text) and what.
    package struct Problem: Error, Sendable, Equatable {
        package var file: String
        package var line: Int?
        package var column: Int?
        package var message: String
        /// Another place the message refers to (the first input holding a duplicate suite).
        package var related: (file: String, line: Int?)?

        package static func == (lhs: Problem, rhs: Problem) -> Bool {
            lhs.file == rhs.file && lhs.line == rhs.line && lhs.column == rhs.column && lhs.message == rhs.message
                && lhs.related?.file == rhs.related?.file && lhs.related?.line == rhs.related?.line
        }
    }

    /// One input: its path (as shown in messages) and its bytes.
    package struct Input: Sendable {
        package var path: String
        package var bytes: [UInt8]

        package init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    private struct Totals {
        var tests = 0, failures = 0, errors = 0
        var microseconds = 0

        /// Adds `other`; false, leaving the totals as they were, when a sum would pass
        /// `Int.max` (times of 999999999999 s in ten suites): the inputs are outside data.
        mutating func add(_ other: Totals) -> Bool {
            guard let tests = Self.sum(tests, other.tests), let failures = Self.sum(failures, other.failures),
                  let errors = Self.sum(errors, other.errors), let microseconds = Self.sum(microseconds, other.microseconds)
            else { return false }
            self = Totals(tests: tests, failures: failures, errors: errors, microseconds: microseconds)
            return true
        }

        static func sum(_ a: Int, _ b: Int) -> Int? {
            let (sum, overflowed) = a.addingReportingOverflow(b)
            return overflowed ? nil : sum
        }
    }

    /// What a time sum past `Int.max` microseconds is told as.
    static let totalTooLarge = "the times add up to more than 9223372036854 seconds: the merged total cannot be written"

    package enum Outcome: Sendable {
        case merged(String)
        /// Every problem found: all inputs are checked, not only up to the first broken one.
        case invalid([Problem])
    }

    package static func merge(_ inputs: [Input]) -> Outcome {
        var problems: [Problem] = []
        var totals = Totals()
        var suites = ""
        /// Where each workflow was seen first.
        var seen: [String: (file: String, line: Int?)] = [:]
        for input in inputs {
            let lines = LineIndex(input.bytes)
            let problem = { (message: String, offset: Int?) -> Problem in
                let place = offset.map { lines.lineAndColumn(of: $0) }
                return Problem(file: input.path, line: place?.line, column: place?.column, message: message)
            }
            let root: XMLElement
            do {
                root = try XMLReader.parse(input.bytes)
            } catch {
                problems.append(problem("not well-formed XML: \(error.message)", error.offset))
                continue
            }
            let suiteElements: [XMLElement]
            switch root.name {
            case "testsuites": suiteElements = root.children.filter { $0.name == "testsuite" }
            case "testsuite": suiteElements = [root]
            default:
                problems.append(problem("not a JUnit report: the root element is <\(root.name)>, not <testsuites> or <testsuite>", root.start))
                continue
            }
            var inputProblems: [Problem] = []
            var inputTotals = Totals()
            var inputSuites = ""
            for suite in suiteElements {
                let line = lines.lineAndColumn(of: suite.start).line
                guard let name = suite.attribute("name") else {
                    inputProblems.append(problem("<testsuite> without a name", suite.start))
                    continue
                }
                let key = suite.attribute("file") ?? name
                if let first = seen[key] {
                    var duplicate = problem("the workflow '\(key)' is in two reports: a merged report would count it twice", suite.start)
                    duplicate.related = first
                    inputProblems.append(duplicate)
                    continue
                }
                guard let suiteTotals = Self.totals(of: suite, named: name, problem: problem, problems: &inputProblems) else { continue }
                guard inputTotals.add(suiteTotals) else {
                    inputProblems.append(problem(totalTooLarge, suite.start))
                    continue
                }
                seen[key] = (input.path, line)
                inputSuites += "  " + String(decoding: input.bytes[suite.start..<suite.end], as: UTF8.self) + "\n"
            }
            // The run's own wall clock when it says it (workflows run at once overlap); else the suites' sum.
            if root.name == "testsuites", let text = root.attribute("time") {
                if let time = seconds(text) {
                    inputTotals.microseconds = time
                } else {
                    inputProblems.append(problem("time=\"\(text)\" of <testsuites> is not a number of seconds", root.start))
                }
            }
            guard inputProblems.isEmpty else {
                problems += inputProblems
                continue
            }
            guard totals.add(inputTotals) else {
                problems.append(problem(totalTooLarge, root.start))
                continue
            }
            suites += inputSuites
        }
        guard problems.isEmpty else { return .invalid(problems) }
        return .merged("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"courier\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\""
            + " errors=\"\(totals.errors)\" time=\"\(JUnitReport.seconds(totals.microseconds))\">\n"
            + suites
            + "</testsuites>\n")
    }

    /// A suite's counts (as the test cases it holds say: a count attribute that disagrees is a
    /// problem) and time; nil when the time is not a number of seconds.
    private static func totals(of suite: XMLElement, named name: String, problem: (String, Int?) -> Problem,
                               problems: inout [Problem]) -> Totals? {
        let cases = suite.children.filter { $0.name == "testcase" }
        var counts: [String: Int] = [:]
        for attribute in ["tests", "failures", "errors", "skipped"] {
            guard let text = suite.attribute(attribute) else { continue }
            guard let value = Int(text), value >= 0 else {
                problems.append(problem("\(attribute)=\"\(text)\" of suite '\(name)' is not a count", suite.start))
                continue
            }
            counts[attribute] = value
        }
        let actual = [
            "tests": cases.count,
            "failures": cases.filter { $0.children.contains { $0.name == "failure" } }.count,
            "errors": cases.filter { $0.children.contains { $0.name == "error" } }.count,
            "skipped": cases.filter { $0.children.contains { $0.name == "skipped" } }.count,
        ]
        for (attribute, count) in counts.sorted(by: { $0.key < $1.key }) where actual[attribute] != count {
            problems.append(problem("suite '\(name)' says \(attribute)=\"\(count)\" but holds \(actual[attribute] ?? 0)", suite.start))
        }
        let time = suite.attribute("time").map { seconds($0) } ?? .some(0)
        guard let time else {
            problems.append(problem("time=\"\(suite.attribute("time") ?? "")\" of suite '\(name)' is not a number of seconds", suite.start))
            return nil
        }
        return Totals(tests: actual["tests"] ?? 0, failures: actual["failures"] ?? 0,
                      errors: actual["errors"] ?? 0, microseconds: time)
    }

    /// `1.234` seconds as microseconds; nil when it is not a non-negative decimal.
    private static func seconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(text), value.isFinite, value >= 0, value < 1e12 else { return nil }
        return Int((value * 1_000_000).rounded())
    }
}
