import Foundation
import Testing

/// Proxies: `proxy:`, `--proxy`, and the `http_proxy`/`https_proxy`/`no_proxy` environment,
/// counted by `forward_proxy.py` (one test: the proxy's counters are shared).
@Suite struct ProxyTests {
    @Test("proxy: option, --proxy and http_proxy/https_proxy go through the proxy (CONNECT for HTTPS); no_proxy bypasses it")
    func proxies() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let https = try await TransportFixtures.shared.server(.https)
        let proxy = try await TransportFixtures.shared.server(.proxy)
        let ca = try await TransportFixtures.shared.certificate("ca.pem")
        let proxyURL = "http://127.0.0.1:\(proxy.port)"
        // Courier.run sets no_proxy=127.0.0.1 for every other test; libcurl honours it for
        // explicit proxies too, so clear it here.
        let noBypass = ["no_proxy": "", "NO_PROXY": ""]
        let viaProxy = """
            expect: { json: { "$.headers[?@[0] == 'Via'][1]": { length: 1, each: { contains: courier-test-proxy } } } }
            """
        _ = try proxy.getJSON("/__proxy_stats?reset=1")

        let option = try await TransportRun.run("""
            name: proxy option
            defaults: { proxy: "\(proxyURL)" }
            steps:
              - name: through the proxy
                request: { url: \(http.baseURL)/echo }
                \(viaProxy)
            """, environment: noBypass)
        #expect(option.result.status == 0, option.result.context)
        #expect(try proxy.getJSON("/__proxy_stats?reset=1")["http"] as? Int == 1)

        let flow = """
            name: env proxy
            steps:
              - name: plain
                request: { url: \(http.baseURL)/echo }
                \(viaProxy)
            """
        let flag = try await TransportRun.run(flow, arguments: ["--proxy", proxyURL], environment: noBypass)
        #expect(flag.result.status == 0, flag.result.context)
        #expect(try proxy.getJSON("/__proxy_stats?reset=1")["http"] as? Int == 1)

        let env = try await TransportRun.run(flow, environment: noBypass.merging(["http_proxy": proxyURL]) { $1 })
        #expect(env.result.status == 0, env.result.context)
        #expect(try proxy.getJSON("/__proxy_stats?reset=1")["http"] as? Int == 1)

        let tunnel = try await TransportRun.run("""
            name: https proxy
            steps:
              - name: tunnelled
                request: { url: \(https.baseURL)/echo, tls: { ca: \(ca) } }
                expect: { json: { $.scheme: https } }
            """, environment: noBypass.merging(["https_proxy": proxyURL]) { $1 })
        #expect(tunnel.result.status == 0, tunnel.result.context)
        let tunnelStats = try proxy.getJSON("/__proxy_stats?reset=1")
        #expect(tunnelStats["connect"] as? Int == 1, "\(tunnelStats)")

        let bypassed = try await TransportRun.run("""
            name: bypass
            steps:
              - name: direct
                request: { url: \(http.baseURL)/echo }
                expect: { json: { "$.headers[?@[0] == 'Via']": { exists: false } } }
            """, environment: ["http_proxy": proxyURL, "no_proxy": "127.0.0.1", "NO_PROXY": "127.0.0.1"])
        #expect(bypassed.result.status == 0, bypassed.result.context)
        #expect(try proxy.getJSON("/__proxy_stats")["requests"] as? Int == 0)

        let unreachable = try await TransportRun.run(flow, arguments: ["--proxy", "http://127.0.0.1:\(try RawHTTP.refusingPort())"],
                                                     environment: noBypass)
        #expect(unreachable.result.status == 1, unreachable.result.context)
        #expect(unreachable.error("plain")?.type == "proxy", unreachable.result.context)
        #expect(unreachable.error("plain")?.text.contains("cannot connect to the proxy") == true, unreachable.result.context)
    }
}
