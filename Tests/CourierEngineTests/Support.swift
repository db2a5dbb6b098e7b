import CourierDiagnostics
@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow
import Foundation
import Synchronization
import Testing

// MARK: - Fake transport

/// Records every request and answers from a closure, so the engine runs
/// without a network.
final class FakeTransport: HTTPTransport {
    typealias Responder = @Sendable (HTTPRequest) -> Result<HTTPResponse, HTTPError>

    private let responder: Responder
    private let recorded = Mutex<[HTTPRequest]>([])

    init(_ responder: @escaping Responder = { _ in .success(HTTPResponse(status: 200)) }) {
        self.responder = responder
    }

    /// Answers every request with the same response.
    convenience init(always response: HTTPResponse) {
        self.init { _ in .success(response) }
    }

    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        return try responder(request).get()
    }
}

/// Collects engine events in the order they were emitted.
final class EventLog: Sendable {
    private let events = Mutex<[RunEvent]>([])
    func append(_ event: RunEvent) { events.withLock { $0.append(event) } }
    var all: [RunEvent] { events.withLock { $0 } }
}

// MARK: - Responses

func jsonResponse(_ status: Int = 200, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
    var headers = headers
    if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "application/json") }
    return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
}

func textResponse(_ status: Int = 200, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
    HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
}

// MARK: - Workflows

struct WorkflowDecodingFailed: Error, CustomStringConvertible {
    var messages: [String]
    var description: String { "the test workflow does not decode:\n" + messages.joined(separator: "\n") }
}

/// The path test workflows are registered under; relative paths resolve against its directory.
let testWorkflowPath = "/tmp/courier-etests/flows/test.yaml"

/// Decodes a test workflow. Files are not looked at unless `sources` is given
/// (register the files a test includes there): most tests name paths that do not exist.
func decode(_ yaml: String, path: String = testWorkflowPath, sources: SourceStore? = nil) throws -> Workflow {
    switch decodeWorkflow(text: yaml, path: path, sources: sources ?? SourceStore(), options: LoadOptions(resolveFiles: sources != nil)) {
    case .success(let workflow):
        return workflow
    case .failure(let list):
        throw WorkflowDecodingFailed(messages: list.diagnostics.map(\.description))
    }
}

struct EngineRun {
    var result: WorkflowResult
    var requests: [HTTPRequest]
    var events: [RunEvent]
    /// What the run registered as secrets (results hold no secrets: the registry does).
    var secrets: [String]

    var steps: [StepResult] { result.steps }

    /// The assertion failures of the step at `index` (empty when it did not fail).
    func failures(_ index: Int = 0) -> [ExpectationResult] {
        guard steps.indices.contains(index), case .failed(let failures) = steps[index].outcome else { return [] }
        return failures
    }
}

/// Decodes `yaml` and runs it through an engine on `transport`.
func run(_ yaml: String, transport: FakeTransport = FakeTransport(), settings: RunSettings = RunSettings(),
         functions: BuiltinFunctions = BuiltinFunctions(), path: String = testWorkflowPath,
         sources: SourceStore? = nil) async throws -> EngineRun {
    let workflow = try decode(yaml, path: path, sources: sources)
    let log = EventLog()
    let engine = Engine(transport: transport, settings: settings, functions: functions, sources: sources ?? SourceStore(),
                        onEvent: { log.append($0) })
    let result = await engine.run([workflow])
    let workflowResult = try #require(result.workflows.first)
    return EngineRun(result: workflowResult, requests: transport.requests, events: log.all, secrets: settings.secrets.values)
}

/// Runs a one-step workflow answering `response` and returns the step's result.
func runStep(_ yaml: String, response: HTTPResponse, settings: RunSettings = RunSettings()) async throws -> EngineRun {
    try await run(yaml, transport: FakeTransport(always: response), settings: settings)
}

// MARK: - Outcomes

extension StepOutcome {
    var isPassed: Bool { if case .passed = self { true } else { false } }
    var error: StepError? { if case .errored(let error) = self { error } else { nil } }
    var failures: [ExpectationResult] { if case .failed(let f) = self { f } else { [] } }
}

// MARK: - Source positions

/// 1-based line and column (in Unicode scalars) of the `occurrence`-th `needle` in `text`.
func position(of needle: String, in text: String, occurrence: Int = 1) -> (line: Int, column: Int)? {
    var seen = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        var searchStart = line.startIndex
        while let found = line[searchStart...].range(of: needle) {
            seen += 1
            if seen == occurrence {
                let column = line.unicodeScalars[line.startIndex..<found.lowerBound].count + 1
                return (index + 1, column)
            }
            searchStart = found.upperBound
        }
    }
    return nil
}

/// Whether `range` starts at the `occurrence`-th `needle` of `yaml`.
func starts(_ range: SourceRange?, at needle: String, in yaml: String, occurrence: Int = 1,
            sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    guard let expected = position(of: needle, in: yaml, occurrence: occurrence) else {
        Issue.record("'\(needle)' does not occur in the YAML", sourceLocation: sourceLocation)
        return
    }
    guard let range else {
        Issue.record("no source location; expected \(expected.line):\(expected.column) ('\(needle)')", sourceLocation: sourceLocation)
        return
    }
    #expect(range.start.line == expected.line && range.start.column == expected.column,
            "location \(range.start.line):\(range.start.column), expected \(expected.line):\(expected.column) ('\(needle)')",
            sourceLocation: sourceLocation)
}

// MARK: - Requests

extension HTTPRequest {
    var bodyText: String? {
        if case .bytes(let bytes) = body { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }
}
