@testable import CourierEngine
import CourierHTTP
import CourierWorkflow
import Foundation
import Testing

/// The runner's bottom option layer is CourierHTTP's defaults, and both are what the contract's
/// §6 table says: read from docs/workflow-format.md, so a default changed in one place fails here.
@Suite struct BuiltInOptionsTests {
    /// `| key | default | meaning |` rows of §6, key → default with its backquotes removed.
    static func contractDefaults() throws -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/workflow-format.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## 6. ").dropFirst().first?.components(separatedBy: "\n## ").first)
        var defaults: [String: String] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
            if cells.count >= 2 { defaults[cells[0]] = cells[1] }
        }
        return defaults
    }

    @Test func theBottomLayerIsTheContractsTable() throws {
        let table = try Self.contractDefaults()
        let builtIns = RequestOptions.builtIns
        #expect(table["timeout"] == "30s" && builtIns.timeout == .seconds(30))
        #expect(table["connect_timeout"] == "10s" && builtIns.connectTimeout == .seconds(10))
        #expect(table["follow_redirects"] == "true" && builtIns.followRedirects == true)
        #expect(table["follow_redirects.trusted"] == "false" && builtIns.trustedRedirects == false)
        #expect(table["max_redirects"] == "10" && builtIns.maxRedirects == 10)
        #expect(table["compressed"] == "true" && builtIns.compressed == true)
        #expect(table["cookies"] == "true" && builtIns.cookies == true)
        #expect(table["tls.insecure"] == "false" && builtIns.tls?.insecure == false)
        #expect(table["http_version"] == "auto" && builtIns.httpVersion == nil, "negotiated by libcurl")
        #expect(table["proxy"] == "env" && builtIns.proxy == nil, "the environment's")
        #expect(table["base_url"] == "none" && builtIns.baseURL == nil)
    }

    /// A request the library sends starts from the same values.
    @Test func httpRequestOptionsStartAlike() {
        let options = HTTPRequestOptions()
        #expect(options.timeoutMilliseconds == 30_000 && options.connectTimeoutMilliseconds == 10_000)
        #expect(options.followRedirects && options.maxRedirects == 10 && options.compressed)
        #expect(!options.unrestrictedAuth && options.cookie == nil)
        #expect(options.maxResponseBytes == HTTPDefaults.maxResponseBytes && RunSettings().maxResponseBytes == HTTPDefaults.maxResponseBytes)
    }
}
