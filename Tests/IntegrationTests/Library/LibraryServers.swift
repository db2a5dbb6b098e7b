import Foundation

/// The `Tests/Servers/library_server.py` processes of the library's suites, each started once
/// per test process on first use (stopped when the process ends: see `ServerProcess`).
///
/// - `http`: plain HTTP;
/// - `https`: HTTPS with a certificate of the test CA (`make_certs.sh`), which a client that
///   is not told about that CA must refuse;
/// - `mtls`: HTTPS that requires a client certificate signed by the test CA.
actor LibraryServers {
    static let shared = LibraryServers()

    enum Server: Sendable, Hashable {
        case http, https, mtls
    }

    private var servers: [Server: Task<ServerProcess, Error>] = [:]

    static var script: String {
        Paths.packageRoot.appendingPathComponent("Tests/Servers/library_server.py").path
    }

    /// The server, started on first use.
    func server(_ which: Server) async throws -> ServerProcess {
        if let task = servers[which] { return try await task.value }
        let task = Task { () throws -> ServerProcess in try await Self.start(which) }
        servers[which] = task
        return try await task.value
    }

    /// The base URL of the server, as a `URL`.
    func baseURL(_ which: Server) async throws -> URL {
        let server = try await server(which)
        guard let url = URL(string: server.baseURL) else { throw HarnessError("bad base URL \(server.baseURL)") }
        return url
    }

    /// A file made by `make_certs.sh` (the transport suites' certificates, made once per process).
    func certificate(_ name: String) async throws -> String {
        try await TransportFixtures.shared.certificate(name)
    }

    private static func start(_ which: Server) async throws -> ServerProcess {
        switch which {
        case .http:
            return try await ServerProcess.startPython(script, [], scheme: "http")
        case .https, .mtls:
            let certs = try await TransportFixtures.shared.certificates()
            func cert(_ name: String) -> String { certs.appendingPathComponent(name).path }
            var arguments = ["--tls-cert", cert("server.pem"), "--tls-key", cert("server.key")]
            if which == .mtls { arguments += ["--client-ca", cert("ca.pem")] }
            return try await ServerProcess.startPython(script, arguments, scheme: "https")
        }
    }
}

/// A key no other test uses, for the server's per-key counters.
func uniqueKey(_ prefix: String) -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8))"
}
