import CourierReports
import Testing

/// ``JUnitMerge`` refuses every input that is not well-formed XML, at the position of the
/// first fault: the merged report copies the inputs' suites byte for byte, so what the
/// reader lets through, a CI's XML parser rejects in the merged file.
@Suite struct JUnitMergeWellFormednessTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: [UInt8]
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { name }
    }

    private static let head = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"a\" tests=\"1\">\n    <testcase name=\"x\">".utf8)
    private static let tail = Array("</testcase>\n  </testsuite>\n</testsuites>\n".utf8)
    /// A report with `inner` inside its one test case (line 4, from column 24).
    private static func report(_ inner: [UInt8]) -> [UInt8] { head + inner + tail }
    private static func report(_ inner: String) -> [UInt8] { report(Array(inner.utf8)) }

    static let cases: [Case] = [
        Case(name: "&#0;", text: report("<system-out>a&#0;</system-out>"), line: 4, column: 37,
             message: "not well-formed XML: '&#0;' refers to a character XML does not allow"),
        Case(name: "&#x1;", text: report("<system-out>&#x1;</system-out>"), line: 4, column: 36,
             message: "not well-formed XML: '&#x1;' refers to a character XML does not allow"),
        Case(name: "&#xD800;", text: report("<system-out>&#xD800;</system-out>"), line: 4, column: 36,
             message: "not well-formed XML: '&#xD800;' refers to a character XML does not allow"),
        Case(name: "&#xFFFE; in an attribute", text: report("<failure message=\"&#xFFFE;\"/>"), line: 4, column: 42,
             message: "not well-formed XML: '&#xFFFE;' refers to a character XML does not allow"),
        Case(name: "a signed reference", text: report("<system-out>&#+65;</system-out>"), line: 4, column: 36,
             message: "not well-formed XML: unknown entity '&#+65;'"),
        Case(name: "raw U+0001", text: report([UInt8]("<system-out>a".utf8) + [0x01] + Array("</system-out>".utf8)), line: 4, column: 37,
             message: "not well-formed XML: control character U+0001 (not allowed in XML, even as a reference)"),
        Case(name: "raw NUL in an attribute", text: report([UInt8]("<failure message=\"".utf8) + [0x00] + Array("\"/>".utf8)), line: 4, column: 42,
             message: "not well-formed XML: control character U+0000 (not allowed in XML, even as a reference)"),
        Case(name: "raw U+FFFF", text: report([UInt8]("<system-out>".utf8) + [0xEF, 0xBF, 0xBF] + Array("</system-out>".utf8)), line: 4, column: 36,
             message: "not well-formed XML: character U+FFFF (not allowed in XML)"),
        Case(name: "bytes that are not UTF-8", text: report([UInt8]("<system-out>".utf8) + [0xC3, 0x28] + Array("</system-out>".utf8)), line: 4, column: 36,
             message: "not well-formed XML: bytes that are not UTF-8"),
        Case(name: "an encoded surrogate", text: report([UInt8]("<system-out>".utf8) + [0xED, 0xA0, 0x80] + Array("</system-out>".utf8)), line: 4, column: 36,
             message: "not well-formed XML: bytes that are not UTF-8"),
        Case(name: "']]>' in text", text: report("<system-out>a]]>b</system-out>"), line: 4, column: 37,
             message: "not well-formed XML: ']]>' in text (write ]]&gt;)"),
        Case(name: "'--' in a comment", text: report("<!-- a -- b -->"), line: 4, column: 31,
             message: "not well-formed XML: '--' inside a comment"),
        Case(name: "a DOCTYPE inside an element", text: report("<!DOCTYPE x>"), line: 4, column: 24,
             message: "not well-formed XML: a DOCTYPE inside an element"),
        Case(name: "an XML declaration not first", text: Array("\n<?xml version=\"1.0\"?><testsuite name=\"a\"/>".utf8), line: 2, column: 1,
             message: "not well-formed XML: an XML declaration that is not at the very start of the document"),
        Case(name: "an unterminated start tag", text: Array("<testsuites>\n  <testsuite name=\"a\"".utf8), line: 2, column: 3,
             message: "not well-formed XML: unterminated start tag <testsuite>"),
        Case(name: "an unterminated end tag", text: report("<system-out>x</system-out"), line: 4, column: 49,
             message: "not well-formed XML: expected '>' to end </system-out>"),
        Case(name: "an attribute given twice", text: report("<failure type=\"a\" message=\"m\" type=\"b\"/>"), line: 4, column: 54,
             message: "not well-formed XML: attribute 'type' given twice"),
        // The first fault in the document wins, whether of its characters or its structure.
        Case(name: "a bad character before a broken tag", text: report([UInt8]("<system-out>".utf8) + [0x02] + Array("</system-ou".utf8)), line: 4, column: 36,
             message: "not well-formed XML: control character U+0002 (not allowed in XML, even as a reference)"),
        Case(name: "a broken tag before a bad character", text: Array("<testsuites>\n<testsuite name=\"a\" x>\n".utf8) + [0x02], line: 2, column: 22,
             message: "not well-formed XML: expected '=' after attribute 'x'"),
    ]

    @Test("each fault is refused at its line and column", arguments: cases)
    func refused(_ fault: Case) {
        guard case .invalid(let problems) = JUnitMerge.merge([JUnitMerge.Input(path: "bad.xml", bytes: fault.text)]) else {
            Issue.record("a report that is not well-formed merged")
            return
        }
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.file == "bad.xml")
        #expect(problems.first?.line == fault.line && problems.first?.column == fault.column, "\(problems)")
        #expect(problems.first?.message == fault.message)
    }

    @Test("what XML allows still merges: tab, CR, references to legal characters, non-ASCII, a comment, CDATA, a DOCTYPE in the prolog")
    func legalStillMerges() {
        let text = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE testsuites>\n<!-- shard 1 -->\n<testsuites>\n  <testsuite name=\"ä\" tests=\"1\">\n    <testcase name=\"x&#9;&#xA;&#x10FFFF;\">\r\n\t<system-out><![CDATA[a ]] b]]>é ] > \u{FFFD}</system-out>\n    </testcase>\n  </testsuite>\n</testsuites>\n".utf8)
        guard case .merged(let merged) = JUnitMerge.merge([JUnitMerge.Input(path: "good.xml", bytes: text)]) else {
            Issue.record("a well-formed report was refused")
            return
        }
        #expect(merged.contains("<testcase name=\"x&#9;&#xA;&#x10FFFF;\">"))
    }
}
