@testable import CourierReports
import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierSecrets
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A secret whose value is also markup (`testsuite`, `failure`, `&amp;`'s `amp`, `div`,
/// a word of the inline style or script, a single `<`) is masked in the values of the
/// JUnit and HTML reports and never in their markup: the document keeps the shape it has
/// with any other secret value, and the secret shows in none of its values.
@Suite struct MarkupSecretTests {
    /// Markup of JUnit (elements, attributes, entities), of the HTML page (tags, attributes,
    /// entities, a CSS word, a word of the script) and one-character secrets found in both.
    static let markupSecrets = [
        "testsuite", "testcase", "failure", "message", "system-out", "amp", "quot", "div", "script", "style",
        "details", "class", "summary", "sticky", "querySelector", "sha256", "<", "\"", "=", "&", "s",
    ]
    /// A value that is no markup, for the shape every report should keep.
    static let neutral = "Zq8neutralCanary"

    /// Every value a report shows holds `[[secret]]` (and an `&`, so entities are written):
    /// names, a file, a message, a hint, a skip reason, headers, bodies, a redirect, a retry.
    static func run(_ secret: String) -> RunResult {
        let marked = "[[\(secret)]]"
        let attempt = Attempt(
            durationMicroseconds: 2_000,
            request: RequestRecord(method: "POST", url: "http://127.0.0.1:1/a/\(marked)",
                                   headers: [HeaderField(name: "X-Note", value: "a&b \(marked)")],
                                   body: BodyRecord(totalBytes: 20, text: "body \(marked) & more")),
            redirects: [ExchangeRecord(url: "http://127.0.0.1:1/r/\(marked)", status: 302,
                                       headers: [HeaderField(name: "Location", value: "/b/\(marked)")])],
            response: ResponseRecord(url: "http://127.0.0.1:1/b", status: 500,
                                     headers: [HeaderField(name: "X-Echo", value: marked)],
                                     body: BodyRecord(totalBytes: 30, text: "<p>\(marked) &amp; 'x'</p>"),
                                     timings: HTMLReportTests.timings(total: 1_000)),
            expectations: [ExpectationResult(location: nil, subject: "body", message: "body: expected \(marked)",
                                             expected: .value(.string(marked)), actual: .value(.string("got & \(marked)")))],
            retry: AttemptRetry(reason: "500 \(marked)", waitMicroseconds: 1_000))
        var last = attempt
        last.retry = nil
        let location = SourceLocation(file: "flows/\(marked).yaml", line: 3, column: 5)
        let failure = ExpectationResult(location: SourceRange(start: location, end: location), subject: "body",
                                        message: "body: expected \(marked)", expected: .value(.string(marked)),
                                        actual: .value(.string("got & \(marked)")))
        let steps = [
            StepResult(name: "fails \(marked)", phase: .steps, outcome: .failed([failure]), attempts: [attempt, last],
                       captures: [CapturedValue(name: "plain", value: .string(marked), secret: false)]),
            StepResult(name: "errs \(marked)", phase: .steps,
                       outcome: .errored(StepError(.transfer("transport"), message: "reset & \(marked)", hint: "hint \(marked)")),
                       attempts: [last]),
            StepResult(name: "skips \(marked)", phase: .steps, outcome: .skipped(reason: .recorded("because \(marked)"))),
        ]
        let workflow = WorkflowResult(file: "flows/\(marked).yaml", name: "flow \(marked)", description: "about \(marked)", steps: steps)
        return RunResult(workflows: [workflow], durationMicroseconds: 9_000)
    }

    /// The report of `run(secret)` with `secret` registered, as written to a file.
    static func written(_ format: ReportRequest.Format, secret: String) throws -> String {
        let registry = SecretRegistry()
        registry.register(secret, name: "token")
        let path = NSTemporaryDirectory() + "courier-markup-\(UUID().uuidString)"
        defer { unlink(path) }
        try ReportRequest(format: format, path: path).write(run(secret), maskingWith: registry)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    // MARK: - JUnit

    /// Element names and attribute names, nested: what a secret in a value must not change.
    static func shape(_ element: FoundationXML.XMLElement) -> String {
        let attributes = (element.attributes ?? []).compactMap(\.name).sorted().joined(separator: ",")
        let children = (element.children ?? []).compactMap { $0 as? FoundationXML.XMLElement }.map(shape).joined()
        return "<\(element.name ?? "?") \(attributes)>\(children)</>"
    }

    /// Every attribute value and text node, as a reader decodes them.
    static func values(_ node: FoundationXML.XMLNode) -> [String] {
        var found: [String] = []
        if let element = node as? FoundationXML.XMLElement {
            found += (element.attributes ?? []).compactMap(\.stringValue)
            for child in element.children ?? [] { found += values(child) }
        } else if node.kind == .text, let text = node.stringValue {
            found.append(text)
        }
        return found
    }

    @Test("JUnit: a secret equal to markup is masked in every value and the document keeps its shape", arguments: markupSecrets)
    func junit(secret: String) throws {
        let expected = try FoundationXML.XMLDocument(xmlString: Self.written(.junit, secret: Self.neutral), options: [])
        let text = try Self.written(.junit, secret: secret)
        let document = try #require(try? FoundationXML.XMLDocument(xmlString: text, options: []), "not well-formed XML:\n\(text)")
        let root = try #require(document.rootElement())
        #expect(Self.shape(root) == Self.shape(try #require(expected.rootElement())), "\(text)")
        let values = Self.values(root)
        #expect(!values.contains { $0.contains("[[\(secret)]]") }, "\(text)")
        #expect(values.contains { $0.contains("[[***]]") }, "\(text)")
    }

    // MARK: - HTML

    /// Tags in order, each with its attribute names: the page's structure.
    static func tags(_ html: String) -> [String] {
        var tags: [String] = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let inside = rest[rest.index(after: open)..<close]
            let parts = inside.split(separator: " ", maxSplits: 1)
            let name = String(parts.first ?? "")
            var attributes: [String] = []
            if parts.count > 1 {
                // Values are escaped (no raw `"` inside): names sit before `="`.
                let pieces = parts[1].components(separatedBy: "\"")
                for (index, piece) in pieces.enumerated() where index % 2 == 0 {
                    let trimmed = piece.trimmingCharacters(in: .whitespaces)
                    if !trimmed.isEmpty { attributes.append(trimmed) }
                }
            }
            tags.append(([name] + attributes).joined(separator: " "))
            rest = rest[rest.index(after: close)...]
        }
        return tags
    }

    /// The text between `<tag…>` and `</tag>`, for the style sheet and the script.
    static func content(of tag: String, in html: String) -> String? {
        guard let start = html.range(of: "<\(tag)>"), let end = html.range(of: "</\(tag)>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// Text and attribute values outside the style and script, entities decoded; nil when an
    /// `&` starts no entity the page writes (a masked entity such as `&***;`).
    static func decodedValues(_ html: String) -> String? {
        var text = html
        for tag in ["style", "script"] {
            if let body = content(of: tag, in: text) { text = text.replacingOccurrences(of: body, with: "") }
        }
        let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'"]
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "&" {
                guard let (entity, character) = entities.first(where: { text[index...].hasPrefix($0.key) }) else { return nil }
                out += character
                index = text.index(index, offsetBy: entity.count)
            } else {
                out.append(text[index])
                index = text.index(after: index)
            }
        }
        return out
    }

    @Test("HTML: a secret equal to markup, a CSS or a script word is masked in every value; tags, style and script are unchanged",
          arguments: markupSecrets)
    func html(secret: String) throws {
        let expected = try Self.written(.html, secret: Self.neutral)
        let page = try Self.written(.html, secret: secret)
        #expect(Self.tags(page) == Self.tags(expected))
        #expect(Self.content(of: "style", in: page) == HTMLAssets.style)
        #expect(Self.content(of: "script", in: page) == HTMLAssets.script)
        #expect(page.contains("content=\"\(HTMLAssets.contentSecurityPolicy)\""))
        let values = try #require(Self.decodedValues(page), "an entity was rewritten:\n\(page)")
        #expect(!values.contains("[[\(secret)]]"))
        #expect(values.contains("[[***]]"))
    }

    @Test("without secrets, JUnit and HTML are byte for byte what their renderers write (masking by renderer changes nothing)")
    func secretFree() throws {
        let run = Self.run(Self.neutral)
        for format in [ReportRequest.Format.junit, .html] {
            let path = NSTemporaryDirectory() + "courier-markup-\(UUID().uuidString)"
            defer { unlink(path) }
            try ReportRequest(format: format, path: path).write(run, maskingWith: SecretRegistry())
            #expect(try String(contentsOfFile: path, encoding: .utf8) == (try format.render(run, policy: .empty)))
        }
    }
}
