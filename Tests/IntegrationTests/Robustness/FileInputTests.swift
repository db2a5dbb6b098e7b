import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Files that are not files: pipes, standard input, devices and directories named as bodies,
/// includes, `courier query` input and `--env-file`. Nothing hangs, nothing sends an empty body
/// silently, every refusal says what the path is.
@Suite("files that are not files", .testServer)
struct FileInputTests {
    /// `courier ARGS` under `/bin/sh -c SCRIPT`, where the script may pipe into it (`"$@"` is courier).
    static func shell(_ script: String, _ arguments: [String], in workspace: Workspace,
                      timeout: Duration = .seconds(30)) async throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { env[name] = nil }
        env["NO_COLOR"] = "1"
        let result = try await ProcessRunner.run("/bin/sh", ["-c", script, "sh", try Paths.courierBinary()] + arguments,
                                                 in: workspace.url, environment: env, timeout: timeout)
        if result.timedOut { throw HarnessError("courier did not finish within \(timeout):\n\(result.allOutput)") }
        return result
    }

    static func makeFIFO(_ workspace: Workspace, _ name: String) throws -> String {
        let path = workspace.path(name)
        guard mkfifo(path, 0o600) == 0 else { throw HarnessError("mkfifo \(path) failed: errno \(errno)") }
        return path
    }

    // MARK: - Bodies

    @Test("body_file: - sends piped standard input (it used to send an empty body)")
    func standardInputBody() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("stdin.yaml", """
            name: stdin body
            steps:
              - name: piped
                request: { method: POST, url: "\(server.baseURL)/echo", body_file: "-", content_type: text/plain }
                expect: { json: { $.body: "from a pipe\\n", $.content_type: text/plain } }
            """)
        let result = try await Self.shell(#"printf 'from a pipe\n' | "$@""#, ["run", "stdin.yaml"], in: workspace)
        #expect(result.status == 0, result.context)
    }

    @Test("body_file: /dev/stdin with piped data sends the data")
    func devStdinBody() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("devstdin.yaml", """
            name: dev stdin
            steps:
              - request: { method: POST, url: "\(server.baseURL)/echo", body_file: /dev/stdin }
                expect: { json: { $.body: "piped" } }
            """)
        let result = try await Self.shell(#"printf piped | "$@""#, ["run", "devstdin.yaml"], in: workspace)
        #expect(result.status == 0, result.context)
    }

    @Test("standard input is read once per run: a second '-' is a step error that says so")
    func standardInputTwice() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("twice.yaml", """
            name: twice
            steps:
              - name: first
                request: { method: POST, url: "\(server.baseURL)/echo", body_file: "-" }
                expect: { json: { $.body: "once" } }
              - name: second
                request: { method: POST, url: "\(server.baseURL)/echo", body_file: "-" }
            """)
        let result = try await Self.shell(#"printf once | "$@""#, ["run", "twice.yaml", "--junit", "junit.xml"], in: workspace)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("already read"), result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("first")?.passed == true)
        #expect(report.testCase("second")?.error?.type == "file_unreadable")
    }

    @Test("a FIFO with a writer is read whole, as body_file and as a multipart file")
    func fifoWithWriter() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        _ = try Self.makeFIFO(workspace, "body.fifo")
        _ = try Self.makeFIFO(workspace, "part.fifo")
        try workspace.write("fifo.yaml", """
            name: fifo
            steps:
              - name: body
                request: { method: POST, url: "\(server.baseURL)/echo", body_file: body.fifo, timeout: 10s }
                expect: { json: { $.body: "body bytes" } }
              - name: part
                request:
                  method: POST
                  url: "\(server.baseURL)/multipart"
                  timeout: 10s
                  multipart: [ { name: upload, file: part.fifo } ]
                expect: { json: { "$.parts[0].size": 10, "$.parts[0].filename": part.fifo } }
            """)
        let result = try await Self.shell(
            #"(printf 'body bytes' > body.fifo; printf 'part bytes' > part.fifo) & "$@"; status=$?; kill $! 2>/dev/null; exit $status"#,
            ["run", "fifo.yaml"], in: workspace)
        #expect(result.status == 0, result.context)
    }

    @Test("a FIFO nobody writes to: the step's timeout ends it (error type timeout), it does not hang")
    func fifoWithoutWriter() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        _ = try Self.makeFIFO(workspace, "silent.fifo")
        try workspace.write("silent.yaml", """
            name: silent
            steps:
              - name: waits
                request: { method: POST, url: "\(server.baseURL)/echo", body_file: silent.fifo, timeout: 500ms }
            """)
        let result = try await Courier.run(["run", "silent.yaml", "--junit", "junit.xml"], in: workspace.url, timeout: .seconds(60))
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("did not reach its end within 500 ms"), result.context)
        // A hang would run into the 60 s harness timeout; the bound leaves room for a loaded
        // CI machine running the suite in parallel (12 s was seen there for a 2 s run).
        #expect(!result.timedOut && result.duration < .seconds(30), "took \(result.duration)")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("waits")?.error?.type == "timeout")
    }

    @Test("Ctrl-C while waiting on a FIFO body: interrupted (130) promptly, report still written")
    func fifoInterrupted() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        _ = try Self.makeFIFO(workspace, "silent.fifo")
        try workspace.write("silent.yaml", """
            name: silent
            steps:
              - name: waits
                request: { method: POST, url: "\(server.baseURL)/echo", body_file: silent.fifo, timeout: 60s }
            """)
        let result = try await Courier.run(["run", "silent.yaml", "--junit", "junit.xml"], in: workspace.url,
                                           timeout: .seconds(50), interruptAfter: .seconds(1))
        #expect(result.status == 130, result.context)
        // Not waiting out the step's 60 s timeout is the point; the bound leaves room for load.
        #expect(!result.timedOut && result.duration < .seconds(30), "took \(result.duration)")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("waits")?.error?.type == "cancelled")
    }

    @Test("pipe bodies are bounded by --max-body-size (request_body_too_large)")
    func pipeTooLarge() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("big.yaml", """
            name: big
            steps:
              - name: too much
                request: { method: POST, url: "\(server.baseURL)/discard", body_file: "-" }
            """)
        let result = try await Self.shell(#"head -c 3000000 /dev/zero | "$@""#,
                                          ["run", "big.yaml", "--max-body-size", "1MB", "--junit", "junit.xml"], in: workspace)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("more than 1 MB"), result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("too much")?.error?.type == "request_body_too_large")
    }

    @Test("literal devices and directories as body_file / multipart file are errors at the key (exit 2, nothing sent)",
          arguments: [("body_file: /dev/zero", "character device"), ("body_file: /dev/urandom", "character device"),
                      ("body_file: adir", "a directory"), ("multipart: [ { name: f, file: /dev/zero } ]", "character device")])
    func literalDevices(_ body: String, _ says: String) async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try FileManager.default.createDirectory(at: workspace.url.appendingPathComponent("adir"), withIntermediateDirectories: true)
        try workspace.write("device.yaml", """
            name: device
            steps:
              - request:
                  method: POST
                  url: "\(server.baseURL)/echo"
                  \(body)
            """)
        let result = try await Courier.run(["run", "device.yaml"], in: workspace.url, timeout: .seconds(20))
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("device.yaml:6:"), "file:line:col of the key's value\n\(result.context)")
        #expect(result.stderr.contains(says), result.context)
    }

    @Test("a templated body_file naming a device is a step error at run time (file_unreadable), not an empty body")
    func templatedDevice() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("templated.yaml", """
            name: templated
            steps:
              - name: random
                request: { method: POST, url: "\(server.baseURL)/echo", body_file: "{{ file }}" }
            """)
        let result = try await Courier.run(["run", "templated.yaml", "--var", "file=/dev/urandom", "--junit", "junit.xml"],
                                           in: workspace.url, timeout: .seconds(20))
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("character device"), result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("random")?.error?.type == "file_unreadable")
    }

    // MARK: - Loading

    @Test("include: of a device or a directory says what it is, at the include (exit 2)",
          arguments: [("/dev/zero", "character device"), ("adir", "is a directory")])
    func includeNotAFile(_ path: String, _ says: String) async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(at: workspace.url.appendingPathComponent("adir"), withIntermediateDirectories: true)
        try workspace.write("inc.yaml", """
            name: inc
            steps:
              - include: \(path)
            """)
        let result = try await Courier.run(["validate", "inc.yaml"], in: workspace.url, timeout: .seconds(20))
        #expect(result.status == 2, result.context)
        #expect(result.allOutput.contains("inc.yaml:3:14"), result.context)
        #expect(result.allOutput.contains(says), result.context)
        #expect(!result.allOutput.contains("permission"), result.context)
        #expect(!result.allOutput.contains("no such file"), result.context)
    }

    @Test("workflow files, --vars-file and --env-file that are devices: exit 2 naming the path, no hang",
          arguments: [["run", "/dev/zero"], ["run", "ok.yaml", "--vars-file", "/dev/zero"], ["run", "ok.yaml", "--env-file", "/dev/zero"]])
    func sourcesThatAreDevices(_ arguments: [String]) async throws {
        let workspace = try Workspace()
        try workspace.write("ok.yaml", """
            name: ok
            steps:
              - request: { url: "http://127.0.0.1:9/" }
            """)
        let result = try await Courier.run(arguments, in: workspace.url, timeout: .seconds(20))
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("'/dev/zero'") && result.stderr.contains("character device"), result.context)
    }

    // MARK: - Names that are not UTF-8

    /// Writes `contents` to a file whose name is `nameBytes` (not valid UTF-8) inside `workspace`.
    static func writeRaw(_ workspace: Workspace, _ nameBytes: [UInt8], _ contents: String) throws {
        let path = Array(workspace.url.path.utf8) + [UInt8(ascii: "/")] + nameBytes
        let fd = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        guard fd >= 0 else { throw HarnessError("cannot create the raw-named file: errno \(errno)") }
        defer { close(fd) }
        let bytes = Array(contents.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { throw HarnessError("short write") }
    }

    @Test("a workflow whose file name is not UTF-8 runs, named on the command line and found in a directory")
    func nonUTF8Names() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        // "caf\xE9.yaml": Latin-1, as an old archive would name it.
        try Self.writeRaw(workspace, Array("caf".utf8) + [0xE9] + Array(".yaml".utf8), """
            name: latin-1 name
            steps:
              - name: health
                request: { url: "\(server.baseURL)/health" }
                expect: { status: 200 }
            """)
        let named = try await Self.shell(#""$@" "$(printf 'caf\351.yaml')" --junit junit.xml"#, ["run"], in: workspace)
        #expect(named.status == 0, named.context)
        #expect(named.stdout.contains("caf\u{FFFD}.yaml"), "shown with a replacement character\n\(named.context)")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("health")?.passed == true)

        let discovered = try await Courier.run(["run", "."], in: workspace.url)
        #expect(discovered.status == 0, discovered.context)
        #expect(discovered.stdout.contains("1 workflow"), discovered.context)
    }

    // MARK: - courier query

    @Test("courier query on /dev/zero, a directory or /dev/zero as stdin: exit 2 at once with a clear error",
          arguments: [("\"$@\" '$' /dev/zero", "character device"), ("\"$@\" '$' .", "is a directory"),
                      ("\"$@\" '$' < /dev/zero", "standard input")])
    func queryDevices(_ script: String, _ says: String) async throws {
        let workspace = try Workspace()
        let result = try await Self.shell(script, ["query"], in: workspace, timeout: .seconds(60))
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains(says), result.context)
        #expect(!result.timedOut, "reading /dev/zero did not stop: \(result.duration)")
    }

    @Test("courier query input is bounded: more than 256 MiB on stdin is exit 2, not memory exhaustion")
    func queryTooLarge() async throws {
        let workspace = try Workspace()
        let result = try await Self.shell(#"head -c 270000000 /dev/zero | "$@" '$'"#, ["query"], in: workspace, timeout: .seconds(60))
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("more than 256 MiB"), result.context)
    }

    @Test("courier query still reads pipes and files")
    func queryPipe() async throws {
        let workspace = try Workspace()
        let result = try await Self.shell(#"printf '{"a":[1,2]}' | "$@" --compact '$.a[*]'"#, ["query"], in: workspace)
        #expect(result.status == 0, result.context)
        #expect(result.stdout == "[1,2]\n", result.context)
    }
}
