import CourierDiagnostics
import CourierHTTP
import CourierJSON
import CourierSecrets
import CourierWorkflow
import Foundation

/// What the command line adds to every workflow of a run.
///
/// Variables: `--var` beats `--vars-file`, which beats `vars:` in the file.
/// Request options given here are defaults *under* a workflow's `defaults:`.
package struct RunSettings: Sendable {
    /// `--var NAME=VALUE`, in order (a later one wins).
    package var commandLineVariables: [(name: String, value: JSONValue)] = []
    /// `--vars-file` values.
    package var fileVariables: [(name: String, value: JSONValue)] = []
    /// The process environment with `--env-file` values over it.
    package var environment: [String: String] = [:]
    /// `--timeout`, in milliseconds.
    package var timeoutMilliseconds: Int?
    /// `--retry N`: the default number of attempts.
    package var retryAttempts: Int?
    /// Seeds the jitter of retry waits (tests); nil draws from the system's generator.
    package var retryJitterSeed: UInt64?
    package var insecure = false
    package var caPath: String?
    package var certificatePath: String?
    package var keyPath: String?
    package var proxy: String?
    /// `--fail-fast`: after the first failed workflow, cancel the running ones and start no more.
    package var failFast = false
    /// `-j/--jobs`: how many workflows run at once (at least 1; 1 runs them one after the other).
    package var jobs = 1
    /// Read back the request headers libcurl sent (`Host`, `User-Agent`, `Accept-Encoding`,
    /// `Cookie` …) for every request, into each hop's `sent` record: on with `-v`. Without
    /// it they are read back only where libcurl may add credentials of its own.
    package var recordSentRequests = false
    /// `--curl`: each attempt keeps a `curl` command reproducing its request (``Attempt/curl``).
    package var curlCommands = false
    /// `--dry-run`: build and record every request, send none (``DryRun``).
    package var dryRun = false
    /// `--max-body-size`: response bodies above this size fail the step. Default 256 MiB.
    package var maxResponseBytes = HTTPDefaults.maxResponseBytes
    /// The run's secrets: the engine registers every secret value it meets here
    /// (`secrets:`, `secret: true` captures, credential headers, TLS passwords);
    /// the command line hands the same registry to the console and report
    /// writers, which mask every output with its policy. A new, empty one by default.
    package var secrets = SecretRegistry()

    package init() {}

    /// `--timeout`, `--insecure`, `--cacert`, `--cert`, `--key` and `--proxy` as the
    /// command-line layer of ``RequestOptions/layered(request:defaults:commandLine:)``.
    /// Their files are named relative to the working directory, so they are made
    /// absolute here: the layered result resolves what is left relative against the
    /// directory of the workflow, which must not apply to them.
    package var commandLineOptions: RequestOptions {
        let range = SourceRange(at: SourceLocation(file: "<command line>", line: 1, column: 1))
        func literal(_ text: String?) -> Template? { text.map { Template(literal: $0, range: range) } }
        func file(_ path: String?) -> Template? {
            literal(path.map { $0.hasPrefix("/") ? $0 : FilePaths.resolve($0, against: FileManager.default.currentDirectoryPath) })
        }
        var options = RequestOptions(timeout: timeoutMilliseconds.map { .milliseconds($0) }, proxy: literal(proxy))
        if insecure || caPath != nil || certificatePath != nil || keyPath != nil {
            options.tls = RequestTLSOptions(ca: file(caPath), cert: file(certificatePath), key: file(keyPath), insecure: insecure ? true : nil)
        }
        return options
    }
}
