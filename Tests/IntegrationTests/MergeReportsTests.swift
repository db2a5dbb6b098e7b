import CourierJSON
import Foundation
import Testing

/// `courier merge-reports OUT IN...`: JUnit or JSON reports of separate runs as one.
@Suite(.testServer)
struct MergeReportsTests {
    /// Times and the server's clock differ between runs; nothing else may.
    private static func withoutTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="T""#, options: .regularExpression)
            .replacingOccurrences(of: #"Date: [^\n&]*"#, with: "Date: D", options: .regularExpression)
            .replacingOccurrences(of: #"\(\d+\.\d+ s\)"#, with: "(T s)", options: .regularExpression)
            // libcurl's "Failed to connect … after 0 ms" (1 ms on a slower run).
            .replacingOccurrences(of: #"after [0-9]+ ms"#, with: "after N ms", options: .regularExpression)
    }

    private func writeFlows(_ workspace: Workspace) throws {
        try workspace.write("flows/1.yaml", """
            name: one
            steps:
              - name: health
                request: { url: "{{ base_url }}/health" }
            """)
        try workspace.write("flows/2.yaml", """
            name: two
            continue_on_failure: true
            steps:
              - name: fails
                request: { url: "{{ base_url }}/status/500" }
                expect: { status: 200 }
              - name: skipped
                if: "{{ false }}"
                request: { url: "{{ base_url }}/health" }
            """)
        try workspace.write("flows/3.yaml", """
            name: three
            steps:
              - name: refused
                request: { url: "http://127.0.0.1:1/nothing" }
            """)
        try workspace.write("flows/4.yaml", """
            name: four
            steps:
              - name: a
                request: { url: "{{ base_url }}/health" }
              - name: b
                request: { url: "{{ base_url }}/json?size=1" }
            """)
    }

    @Test("two runs over two halves of a directory, merged, equal one run over all of it up to times; valid against junit-10.xsd")
    func halvesEqualTheWhole() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try writeFlows(workspace)
        let whole = try await Courier.run(files: ["flows"], workspace: workspace, server: server, extra: ["--junit", "whole.xml"])
        #expect(whole.status == 1, whole.context)
        let first = try await Courier.run(files: ["flows/1.yaml", "flows/2.yaml"], workspace: workspace, server: server,
                                          extra: ["--junit", "first.xml"])
        let second = try await Courier.run(files: ["flows/3.yaml", "flows/4.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "second.xml"])
        #expect(first.status == 1 && second.status == 1, "\(first.context)\n\(second.context)")

        let merge = try await Courier.run(["merge-reports", "merged.xml", "first.xml", "second.xml"], in: workspace.url)
        #expect(merge.status == 0, merge.context)
        #expect(merge.stdout.isEmpty && merge.stderr.isEmpty, merge.context)
        let merged = try workspace.read("merged.xml")
        #expect(Self.withoutTimes(merged) == Self.withoutTimes(try workspace.read("whole.xml")))
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("merged.xml"))
        #expect(report.suites.map(\.name) == ["one", "two", "three", "four"])

        // Times are summed: the merged total is the two runs' totals added.
        func total(_ text: String) -> Double {
            let match = text.firstMatch(of: /<testsuites[^>]* time="([0-9.]+)"/)
            return match.flatMap { Double($0.1) } ?? -1
        }
        let sum = total(try workspace.read("first.xml")) + total(try workspace.read("second.xml"))
        #expect(abs(total(merged) - sum) < 0.0015, "\(total(merged)) is not \(sum)")

        // '-' is standard output, through the same writer.
        let toStdout = try await Courier.run(["merge-reports", "-", "first.xml", "second.xml"], in: workspace.url)
        #expect(toStdout.status == 0 && toStdout.stdout == merged, toStdout.context)
    }

    @Test("the same workflow in two inputs is an error naming both files; OUT is not written")
    func duplicateWorkflow() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try writeFlows(workspace)
        _ = try await Courier.run(files: ["flows/1.yaml", "flows/4.yaml"], workspace: workspace, server: server, extra: ["--junit", "a.xml"])
        _ = try await Courier.run(files: ["flows/4.yaml"], workspace: workspace, server: server, extra: ["--junit", "b.xml"])
        let merge = try await Courier.run(["merge-reports", "out.xml", "a.xml", "b.xml"], in: workspace.url)
        #expect(merge.status == 2, merge.context)
        #expect(merge.stderr.contains("b.xml:3:3: error: the workflow 'flows/4.yaml' is in two reports"), merge.context)
        #expect(merge.stderr.contains("note: first in a.xml:6"), merge.context)
        #expect(merge.stderr.contains("'out.xml' not written"), merge.context)
        #expect(!workspace.exists("out.xml"))
    }

    @Test("broken inputs are named with file:line:column, every one of them; a missing one and bad usage are exit 2")
    func brokenInputs() async throws {
        let workspace = try Workspace()
        let good = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="courier" tests="1" failures="0" errors="0" time="0.010">
              <testsuite name="good" tests="1" failures="0" errors="0" skipped="0" time="0.010" file="good.yaml">
                <testcase name="s" classname="good" time="0.010"/>
              </testsuite>
            </testsuites>

            """
        try workspace.write("good.xml", good)
        try workspace.write("cut.xml", String(good.prefix(180)))
        try workspace.write("miscounted.xml", good.replacingOccurrences(of: "good", with: "other")
            .replacingOccurrences(of: #"tests="1" failures="0" errors="0" skipped"#, with: #"tests="2" failures="0" errors="0" skipped"#))
        try workspace.write("html.xml", "<html><body>not a report</body></html>\n")
        try workspace.write("amp.xml", good.replacingOccurrences(of: "good", with: "a & b"))

        let merge = try await Courier.run(["merge-reports", "out.xml", "good.xml", "cut.xml", "miscounted.xml", "html.xml", "amp.xml"],
                                          in: workspace.url)
        #expect(merge.status == 2, merge.context)
        #expect(merge.stderr.contains("cut.xml:3:3: error: not well-formed XML: unterminated start tag <testsuite>"), merge.context)
        #expect(merge.stderr.contains("miscounted.xml:3:3: error: suite 'other' says tests=\"2\" but holds 1"), merge.context)
        #expect(merge.stderr.contains("html.xml:1:1: error: not a JUnit report: the root element is <html>"), merge.context)
        #expect(merge.stderr.contains("amp.xml:3:22: error: not well-formed XML: '&' that starts no entity reference"), merge.context)
        #expect(merge.stderr.contains("4 errors in 4 of 5 reports; 'out.xml' not written"), merge.context)
        #expect(!workspace.exists("out.xml"))

        // Characters XML does not allow: they were copied into a merged file CI's parsers reject.
        try workspace.write("out.xml", "earlier\n")
        try workspace.write("nul.xml", good.replacingOccurrences(of: #"<testcase name="s""#, with: #"<testcase name="s&#0;""#))
        try workspace.write("control.xml", good.replacingOccurrences(of: "good", with: "u\u{1}"))
        let illegal = try await Courier.run(["merge-reports", "out.xml", "good.xml", "nul.xml", "control.xml"], in: workspace.url)
        #expect(illegal.status == 2, illegal.context)
        #expect(illegal.stderr.contains("nul.xml:4:22: error: not well-formed XML: '&#0;' refers to a character XML does not allow"), illegal.context)
        #expect(illegal.stderr.contains("control.xml:3:21: error: not well-formed XML: control character U+0001"), illegal.context)
        #expect(illegal.stderr.contains("2 errors in 2 of 3 reports; 'out.xml' not written"), illegal.context)
        #expect(try workspace.read("out.xml") == "earlier\n")

        let missing = try await Courier.run(["merge-reports", "out.xml", "good.xml", "nowhere.xml"], in: workspace.url)
        #expect(missing.status == 2 && missing.stderr.contains("cannot read the report 'nowhere.xml': no such file"), missing.context)
        let usage = try await Courier.run(["merge-reports", "out.xml"], in: workspace.url)
        #expect(usage.status == 2 && usage.stderr.contains("takes OUT and at least one IN"), usage.context)
    }

    /// A JSON report with its clock readings blanked (durations, instants, libcurl's timings and
    /// "after N ms", the server's Date) and whether a connection was reused (the halves open their
    /// own): the only things two runs of the same workflows may differ in.
    private static func withoutJSONTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #""([A-Za-z]*Microseconds)": [0-9]+"#, with: #""$1": 0"#, options: .regularExpression)
            .replacingOccurrences(of: #""startedAt": "[^"]*""#, with: #""startedAt": "T""#, options: .regularExpression)
            .replacingOccurrences(of: #"(?i)("date"[^\n]*\n[^\n]*"value": )"[^"]*""#, with: #"$1"D""#, options: .regularExpression)
            .replacingOccurrences(of: #"Date: [^\n"\\]*"#, with: "Date: D", options: .regularExpression)
            .replacingOccurrences(of: #""(connect|firstByte|nameLookup|preTransfer|redirect|tls|total)": [0-9]+"#, with: #""$1": 0"#,
                                  options: .regularExpression)
            .replacingOccurrences(of: #"after [0-9]+ ms"#, with: "after N ms", options: .regularExpression)
            .replacingOccurrences(of: #""reusedConnection": (true|false)"#, with: #""reusedConnection": R"#, options: .regularExpression)
    }

    @Test("JSON: two runs over two halves of a directory, merged, equal one run over all of it up to times; valid against the schema")
    func jsonHalvesEqualTheWhole() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try writeFlows(workspace)
        let whole = try await Courier.run(files: ["flows"], workspace: workspace, server: server, extra: ["--json", "whole.json"])
        #expect(whole.status == 1, whole.context)
        let first = try await Courier.run(files: ["flows/1.yaml", "flows/2.yaml"], workspace: workspace, server: server,
                                          extra: ["--json", "first.json"])
        let second = try await Courier.run(files: ["flows/3.yaml", "flows/4.yaml"], workspace: workspace, server: server,
                                           extra: ["--json", "second.json"])
        #expect(first.status == 1 && second.status == 1, "\(first.context)\n\(second.context)")

        // The later run first: startedAt is the earliest input's whatever the order.
        let merge = try await Courier.run(["merge-reports", "merged.json", "first.json", "second.json"], in: workspace.url)
        #expect(merge.status == 0, merge.context)
        #expect(merge.stdout.isEmpty && merge.stderr.isEmpty, merge.context)
        let merged = try workspace.read("merged.json")
        let mergedLines = Self.withoutJSONTimes(merged).split(separator: "\n", omittingEmptySubsequences: false)
        let wholeLines = Self.withoutJSONTimes(try workspace.read("whole.json")).split(separator: "\n", omittingEmptySubsequences: false)
        let firstDifference = zip(mergedLines, wholeLines).enumerated().first { $0.element.0 != $0.element.1 }
        let same = mergedLines == wholeLines
        #expect(same, "first difference: \(firstDifference.map { "line \($0.offset + 1): \($0.element.0) vs \($0.element.1)" } ?? "in length")")
        let report = try JSONReportFile.parse(merged)
        #expect(report.workflows.map { $0["name"]?.stringValue } == ["one", "two", "three", "four"])
        let summary = try #require(report.summary)
        #expect(summary["passed"] == .bool(false) && summary["interrupted"] == .bool(false))
        #expect(summary["workflows"]?.int == 4 && summary["failedWorkflows"]?.int == 2)
        #expect(summary["steps"]?.int == 6 && summary["passedSteps"]?.int == 3 && summary["failedSteps"]?.int == 1)
        #expect(summary["erroredSteps"]?.int == 1 && summary["skippedSteps"]?.int == 1)

        // Durations are summed; startedAt is the earliest input's.
        let firstReport = try JSONReportFile.parse(try workspace.read("first.json"))
        let secondReport = try JSONReportFile.parse(try workspace.read("second.json"))
        let sum = (firstReport.value["run"]?["durationMicroseconds"]?.int ?? -1) + (secondReport.value["run"]?["durationMicroseconds"]?.int ?? -1)
        #expect(report.value["run"]?["durationMicroseconds"]?.int == sum)
        #expect(summary["durationMicroseconds"]?.int == sum)
        let reversed = try await Courier.run(["merge-reports", "-", "second.json", "first.json"], in: workspace.url)
        #expect(reversed.status == 0, reversed.context)
        let reversedReport = try JSONReportFile.parse(reversed.stdout)
        #expect(reversedReport.value["run"]?["startedAt"] == firstReport.value["run"]?["startedAt"])
        #expect(reversedReport.workflows.map { $0["name"]?.stringValue } == ["three", "four", "one", "two"])
    }

    @Test("JSON: a duplicate workflow, broken JSON, another formatVersion and mixed formats are errors naming the file; OUT is not written")
    func jsonProblems() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try writeFlows(workspace)
        _ = try await Courier.run(files: ["flows/1.yaml", "flows/4.yaml"], workspace: workspace, server: server, extra: ["--json", "a.json"])
        _ = try await Courier.run(files: ["flows/4.yaml"], workspace: workspace, server: server, extra: ["--json", "b.json"])
        _ = try await Courier.run(files: ["flows/3.yaml"], workspace: workspace, server: server, extra: ["--json", "c.json", "--junit", "c.xml"])
        let duplicate = try await Courier.run(["merge-reports", "out.json", "a.json", "b.json"], in: workspace.url)
        #expect(duplicate.status == 2, duplicate.context)
        let bLine = try #require(try workspace.read("b.json").split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains(#""file": "flows/4.yaml""#) }) + 1
        let aLine = try #require(try workspace.read("a.json").split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains(#""file": "flows/4.yaml""#) }) + 1
        #expect(duplicate.stderr.contains("b.json:\(bLine):1: error: the workflow 'flows/4.yaml' is in two reports"), duplicate.context)
        #expect(duplicate.stderr.contains("note: first in a.json:\(aLine)"), duplicate.context)
        #expect(duplicate.stderr.contains("'out.json' not written"), duplicate.context)

        let good = try workspace.read("c.json")
        try workspace.write("cut.json", String(good.prefix(200)))
        try workspace.write("v2.json", good.replacingOccurrences(of: #""formatVersion": 1"#, with: #""formatVersion": 2"#))
        try workspace.write("other.json", #"{"name": "not a report"}"# + "\n")
        let broken = try await Courier.run(["merge-reports", "out.json", "c.json", "cut.json", "v2.json", "other.json"], in: workspace.url)
        #expect(broken.status == 2, broken.context)
        #expect(broken.stderr.contains("cut.json:"), broken.context)
        #expect(broken.stderr.range(of: #"cut\.json:\d+:\d+: error: not valid JSON: "#, options: .regularExpression) != nil, broken.context)
        #expect(broken.stderr.contains("error: v2.json: formatVersion 2 is not 1"), broken.context)
        #expect(broken.stderr.contains("error: other.json: not a Courier JSON report: no 'formatVersion'"), broken.context)
        #expect(broken.stderr.contains("3 errors in 3 of 4 reports; 'out.json' not written"), broken.context)

        let mixed = try await Courier.run(["merge-reports", "out.json", "c.json", "c.xml"], in: workspace.url)
        #expect(mixed.status == 2, mixed.context)
        #expect(mixed.stderr.contains("error: c.xml: a JUnit report among JSON reports (as 'c.json' is)"), mixed.context)
        try workspace.write("text.txt", "hello\n")
        let neither = try await Courier.run(["merge-reports", "out.json", "c.json", "text.txt"], in: workspace.url)
        #expect(neither.status == 2 && neither.stderr.contains("error: text.txt: neither a JUnit (XML) nor a JSON report"), neither.context)
        #expect(!workspace.exists("out.json"))
    }
}
