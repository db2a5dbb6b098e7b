import Foundation
import Testing

/// Response bodies are read in the charset their `Content-Type` declares: expectations,
/// captures, `steps.<id>.body`, the console and JUnit all see the text the server meant.
@Suite("response bodies decoded with their charset", .testServer)
struct ResponseCharsetTests {
    /// `/charset` on the test server: `text` encoded with Python's codec `encoding`.
    static func url(_ text: String, _ encoding: String, extra: String = "") -> String {
        let query = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        return "{{ base_url }}/charset?text=\(query)&encoding=\(encoding)\(extra)"
    }

    @Test("latin-1, windows-1252, GB2312, GBK, Shift_JIS, EUC-JP, KOI8-R, windows-1251 and UTF-16 bodies match 'body:' as text")
    func bodyExpectations() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let cases: [(name: String, text: String, encoding: String, extra: String)] = [
            ("latin-1", "café crème", "latin-1", ""),
            // Declared latin-1 but sent as windows-1252, as servers do: curly quotes and the euro sign.
            ("windows-1252 as latin-1", "“5 €”", "cp1252", "&charset=ISO-8859-1"),
            ("windows-1252", "naïve – ok", "cp1252", "&charset=windows-1252"),
            ("GB2312", "中文测试", "gb2312", ""),
            ("GBK", "中文測試", "gbk", ""),
            ("Shift_JIS", "日本語のテキスト", "shift_jis", ""),
            ("EUC-JP", "日本語", "euc_jp", "&charset=EUC-JP"),
            ("KOI8-R", "Привет", "koi8_r", "&charset=KOI8-R"),
            ("windows-1251", "Здравствуйте", "cp1251", "&charset=windows-1251"),
            ("UTF-16 with a BOM", "Grüße 日本", "utf-16", ""),
            ("UTF-16LE without a BOM", "Grüße", "utf-16-le", "&charset=UTF-16LE"),
            ("UTF-16BE without a BOM", "Grüße", "utf-16-be", "&charset=utf-16"),
        ]
        var steps = ""
        for item in cases {
            steps += """
              - name: \(item.name)
                request: { url: "\(Self.url(item.text, item.encoding, extra: item.extra))" }
                expect: { body: "\(item.text)" }

            """
        }
        try workspace.write("charsets.yaml", "name: charsets\nsteps:\n" + steps)
        let result = try await Courier.run(files: ["charsets.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
        #expect(result.stdout.contains("\(cases.count) passed"), result.context)
    }

    @Test("'contains', a regex capture of a non-ASCII word, 'body: true' and steps.<id>.body see the decoded text")
    func capturesAndStepBody() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("captures.yaml", """
            name: captures
            steps:
              - id: menu
                name: latin-1 menu
                request: { url: "\(Self.url("menu: café crème", "latin-1"))" }
                expect: { body: { contains: café } }
                capture:
                  drink: { regex: 'menu: (\\S+)' }
                  whole: { body: true }
              - id: japanese
                name: Shift_JIS word
                request: { url: "\(Self.url("言葉=日本語", "shift_jis"))" }
                capture:
                  word: { regex: '=(.+)$' }
              - name: echo what was captured
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  json: { drink: "{{ drink }}", whole: "{{ whole }}", word: "{{ word }}", step: "{{ steps.menu.body }}" }
                expect:
                  json:
                    $.json.drink: café
                    $.json.whole: "menu: café crème"
                    $.json.word: 日本語
                    $.json.step: "menu: café crème"
            """)
        let result = try await Courier.run(files: ["captures.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
    }

    @Test("a failing body check shows the decoded text in the console and in JUnit, not '<N bytes of binary data>'")
    func failureOutput() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("fail.yaml", """
            name: failing
            continue_on_failure: true
            steps:
              - name: latin-1 body
                request: { url: "\(Self.url("café", "latin-1"))" }
                expect: { body: cafe }
              - name: GB2312 body
                request: { url: "\(Self.url("中文", "gb2312"))" }
                expect: { body: { contains: 英文 } }
              - name: unknown charset
                request: { url: "\(Self.url("plain ascii", "ascii", extra: "&charset=x-no-such-charset"))" }
                expect: { body: other }
            """)
        let result = try await Courier.run(files: ["fail.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let lines = result.stdout.lines
        #expect(lines.contains(#"  actual:   "café""#), result.context)
        #expect(lines.contains("    café"), "the transcript shows the body as text\n\(result.context)")
        #expect(lines.contains("    中文"), result.context)
        #expect(lines.contains("    * unknown charset 'x-no-such-charset': the body is shown as UTF-8"), result.context)
        #expect(lines.contains("    plain ascii"), result.context)
        #expect(!result.stdout.contains("binary data"), result.context)
        #expect(!result.stdout.contains("\u{FFFD}"), result.context)

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let latin = try #require(report.testCase("latin-1 body"))
        #expect(latin.failure?.message == #"body: expected "cafe", got "café""#)
        #expect(latin.systemOut?.hasSuffix("\n<\ncafé") == true, "JUnit system-out: \(latin.systemOut ?? "nil")")
        let chinese = try #require(report.testCase("GB2312 body"))
        #expect(chinese.systemOut?.hasSuffix("\n<\n中文") == true, "JUnit system-out: \(chinese.systemOut ?? "nil")")
        #expect(!report.text.contains("binary data"))
    }

    @Test("a secret with a non-ASCII letter in a latin-1 body is masked in the decoded text everywhere it is shown")
    func secretInLatin1Body() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let secret = "Grüße-k7Q2vX9mZr"
        try workspace.write("secret.yaml", """
            name: secret
            secrets:
              token: "{{ env.LATIN1_TOKEN }}"
            steps:
              - name: echoed in latin-1
                request: { url: "{{ base_url }}/charset?encoding=latin-1&text={{ token | url_encode }}" }
                expect: { body: { contains: nothing-like-this } }
            """)
        let result = try await Courier.run(files: ["secret.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml", "--verbose"], environment: ["LATIN1_TOKEN": secret])
        #expect(result.status == 1, result.context)
        let junit = try String(contentsOf: workspace.url.appendingPathComponent("junit.xml"), encoding: .utf8)
        for (name, output) in [("stdout", result.stdout), ("stderr", result.stderr), ("JUnit", junit)] {
            // Before bodies were decoded, the body showed as "Gr\u{FFFD}e-k7Q2vX9mZr": no longer the
            // secret the masking knows, so its tail leaked.
            #expect(!output.contains("k7Q2vX9mZr"), "\(name) shows the secret:\n\(output)")
        }
        #expect(result.stdout.lines.contains(#"  actual:   "***""#), result.context)
    }

    @Test("JSON is UTF-8 whatever charset its Content-Type names; a UTF-16 BOM is honoured")
    func jsonBodies() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let json = #"{"name":"Zoë"}"#
        try workspace.write("json.yaml", """
            name: json
            steps:
              - name: application/json with a wrong charset stays UTF-8
                request: { url: "\(Self.url(json, "utf-8", extra: "&content_type=application/json;%20charset=iso-8859-1"))" }
                expect: { json: { $.name: Zoë }, body: { contains: Zoë } }
              - name: UTF-16 JSON with a BOM
                request: { url: "\(Self.url(json, "utf-16", extra: "&content_type=application/json"))" }
                expect: { json: { $.name: Zoë } }
              - name: JSON served as latin-1 text
                request: { url: "\(Self.url(json, "latin-1"))" }
                expect: { json: { $.name: Zoë } }
            """)
        let result = try await Courier.run(files: ["json.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
    }

    @Test("a binary media type keeps the bytes: no charset applies, and the transcript describes them")
    func binaryBodies() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("binary.yaml", """
            name: binary
            steps:
              - name: octet-stream with a charset
                request: { url: "{{ base_url }}/bytes?n=300&content_type=application/octet-stream;%20charset=iso-8859-1" }
                expect: { body: { contains: nothing-like-this } }
            """)
        let result = try await Courier.run(files: ["binary.yaml"], workspace: workspace, server: server)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.lines.contains("    <300 bytes of binary data>"), result.context)
    }
}
