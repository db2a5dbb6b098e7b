import CourierDiagnostics
@testable import CourierWorkflow
import Foundation
import Testing

/// Every `Fixtures/invalid/x.yaml` renders exactly `x.err` (colour off).
/// Re-record with `COURIER_RECORD=1 swift test` and review the diff.
@Suite struct GoldenDiagnosticsTests {
    @Test(arguments: fixtureNames("invalid"))
    func invalidFixtureRendersGolden(name: String) throws {
        let sources = SourceStore()
        let result = try decodeFixture(name, sources: sources)
        guard case .failure(let list) = result else {
            Issue.record("\(name) decoded without errors")
            return
        }
        let rendered = DiagnosticRenderer(sources: sources, color: false).render(list.diagnostics)
        let golden = fixturesDirectory.appendingPathComponent(name.replacingOccurrences(of: ".yaml", with: ".err"))
        if ProcessInfo.processInfo.environment["COURIER_RECORD"] == "1" {
            try rendered.write(to: golden, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(rendered == expected)
    }

    @Test func thereAreEnoughInvalidFixtures() {
        #expect(fixtureNames("invalid").count >= 13)
    }

    @Test(arguments: fixtureNames("valid"))
    func validFixtureDecodesCleanly(name: String) throws {
        let result = try decodeFixture(name)
        if case .failure(let list) = result {
            Issue.record("\(name): \(list)")
        }
    }
}
