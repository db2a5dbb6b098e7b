import Foundation
import Testing

/// `--html FILE` end to end: the page is written for passing, failing, invalid and
/// interrupted runs, shows what the server sent as text, and loads nothing.
@Suite(.testServer) struct HTMLReportRunTests {
    /// Every real tag of the page (text is escaped, so each '<' left starts one).
    static func tags(_ html: String) -> [String] { html.matches(of: /<[A-Za-z][^>]*>/).map { String($0.output) } }

    static func expectSelfContained(_ html: String, _ context: Comment) {
        #expect(html.hasPrefix("<!DOCTYPE html>"), context)
        #expect(html.contains("content=\"default-src 'none';"), "no CSP\n\(context)")
        #expect(html.components(separatedBy: "<script").count == 2, "a <script> besides the page's own\n\(context)")
        for tag in tags(html) {
            #expect(tag.firstMatch(of: /\s(src|href(?!="#s[0-9]+-[0-9]+")|srcset|action|on[a-z]+)\s*=/) == nil, "tag loads or runs something: \(tag)")
        }
        #expect(!html.contains("url(") && !html.contains("@import"), context)
    }

    @Test("a failing run: the echoed <script> is shown escaped, the failed step is open with its diagnostic, a timing bar per request")
    func failingRun() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flow.yaml", """
            name: html flow
            steps:
              - name: health
                request: { url: "{{ base_url }}/health" }
              - name: hostile echo
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  json: { note: "<script>alert('owned')</script>" }
                expect:
                  status: 201
            """)
        let result = try await Courier.run(files: ["flow.yaml"], workspace: workspace, server: server,
                                           extra: ["--html", "out/report.html"])
        #expect(result.status == 1, result.context)
        let html = try workspace.read("out/report.html")
        Self.expectSelfContained(html, result.context)
        #expect(html.contains("&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt;"), "the echoed body is not shown escaped")
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("<details class=\"step failed\" id=\"s0-1\" open><summary><span class=\"b\">FAIL</span>hostile echo"))
        #expect(html.contains("<li><a href=\"#s0-1\">html flow › hostile echo</a>"), "no recap line linking the failed step")
        #expect(html.contains("<details class=\"step ok\"><summary><span class=\"b\">PASS</span>health"))
        #expect(html.contains("<div class=\"diag\"><pre>flow.yaml:"), "no diagnostic with its location")
        #expect(html.contains("status: expected 201, got 200"))
        #expect(html.components(separatedBy: "<div class=\"tb\"").count == 3, "one timing bar per request")
        #expect(html.contains("&gt; POST \(server.baseURL)/echo"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.path("out"))
        #expect(leftovers == ["report.html"], "temporary files left next to the report: \(leftovers)")
    }

    @Test("an invalid workflow still gets a page: the validate step errored with every diagnostic")
    func invalidWorkflow() async throws {
        let workspace = try Workspace()
        try workspace.write("bad.yaml", """
            name: bad
            steps:
              - request: { url: "http://127.0.0.1:1/", header: { A: b } }
            """)
        let result = try await Courier.run(["run", "bad.yaml", "--html", "report.html"], in: workspace.url)
        #expect(result.status == 2, result.context)
        let html = try workspace.read("report.html")
        Self.expectSelfContained(html, result.context)
        #expect(html.contains("<span class=\"b\">ERROR</span>validate"), "no errored validate step\n\(html)")
        #expect(html.contains("did you mean &#39;headers&#39;?"))
    }

    @Test("an interrupted run gets a page that says so, with the skipped steps")
    func interruptedRun() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("slow.yaml", """
            name: slow
            steps:
              - name: slow one
                request: { url: "{{ base_url }}/delay?ms=20000" }
              - name: never sent
                request: { url: "{{ base_url }}/health" }
            """)
        let result = try await Courier.run(["run", "slow.yaml", "--var", "base_url=\(server.baseURL)", "--html", "report.html"],
                                           in: workspace.url, interruptAfter: .milliseconds(1500))
        #expect(result.status == 130, result.context)
        let html = try workspace.read("report.html")
        Self.expectSelfContained(html, result.context)
        #expect(html.contains("<h1>Courier report: interrupted</h1>"))
        #expect(html.contains("The run was interrupted by SIGINT"))
        #expect(html.contains("<span class=\"b\">SKIP</span>never sent"))
    }
}
