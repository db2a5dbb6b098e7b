import Foundation
import Testing

/// The `Content-Type` a server receives for `body:` and `body_file:`: never libcurl's
/// `application/x-www-form-urlencoded`, which makes servers parse a file as a form.
@Suite("request body content types", .testServer)
struct RequestContentTypeTests {
    @Test("body_file without content_type is application/octet-stream, body is text/plain; charset=utf-8; explicit types win; null sends none")
    func defaults() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("upload.bin", "a=1&b=2")
        try workspace.write("types.yaml", """
            name: content types
            steps:
              - name: body_file
                request: { method: POST, url: "{{ base_url }}/echo", body_file: upload.bin }
                expect: { json: { $.content_type: application/octet-stream, $.body: "a=1&b=2" } }
              - name: body_file with PUT
                request: { method: PUT, url: "{{ base_url }}/echo", body_file: upload.bin }
                expect: { json: { $.content_type: application/octet-stream } }
              - name: body text
                request: { method: POST, url: "{{ base_url }}/echo", body: "a=1&b=2" }
                expect: { json: { $.content_type: text/plain; charset=utf-8, $.body: "a=1&b=2" } }
              - name: empty body text
                request: { method: POST, url: "{{ base_url }}/echo", body: "" }
                expect: { json: { $.content_type: text/plain; charset=utf-8 } }
              - name: body_file with content_type
                request: { method: POST, url: "{{ base_url }}/echo", body_file: upload.bin, content_type: text/csv }
                expect: { json: { $.content_type: text/csv } }
              - name: body_file with a Content-Type header
                request: { method: POST, url: "{{ base_url }}/echo", body_file: upload.bin, headers: { content-type: application/x-ndjson } }
                expect: { json: { $.content_type: application/x-ndjson } }
              - name: Content-Type removed with null
                request: { method: POST, url: "{{ base_url }}/echo", body_file: upload.bin, headers: { Content-Type: null } }
                expect: { json: { $.content_type: null, $.body: "a=1&b=2" } }
            """)
        let result = try await Courier.run(files: ["types.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
        #expect(result.stdout.contains("7 passed"), result.context)
    }

    @Test("body_file: - (standard input) without content_type is application/octet-stream")
    func standardInput() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("stdin.yaml", """
            name: stdin type
            steps:
              - request: { method: POST, url: "\(server.baseURL)/echo", body_file: "-" }
                expect: { json: { $.content_type: application/octet-stream, $.body: "x=1" } }
            """)
        let result = try await FileInputTests.shell(#"printf 'x=1' | "$@""#, ["run", "stdin.yaml"], in: workspace)
        #expect(result.status == 0, result.context)
    }
}
